#include "structure/burst_train.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mtf::structure {

namespace {

std::vector<size_t> burstStarts(std::span<const double> signal) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < signal.size(); ++i)
    if (signal[i] > 0 && (i == 0 || signal[i - 1] <= 0)) starts.push_back(i);
  return starts;
}

template <typename T>
T medianOf(std::vector<T> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// Iteration boundaries when an iteration holds `group` bursts and the first one starts at
// burst `offset`. After the last burst the loop's last iteration has no next start: it is
// given the median length (when it fits), and `pseudo` says so.
std::vector<size_t> cutsOf(const std::vector<size_t>& starts, size_t group, size_t offset, size_t n,
                           bool& pseudo) {
  std::vector<size_t> cuts;
  for (size_t i = offset; i < starts.size(); i += group) cuts.push_back(starts[i]);
  pseudo = false;
  if (cuts.size() < 2) return cuts;
  std::vector<size_t> lengths;
  for (size_t j = 0; j + 1 < cuts.size(); ++j) lengths.push_back(cuts[j + 1] - cuts[j]);
  const size_t end = cuts.back() + medianOf(lengths);
  if (end <= n) cuts.push_back(end), pseudo = true;
  return cuts;
}

std::optional<BurstTrain> trainOf(const std::vector<size_t>& starts,
                                  const std::vector<double>& prefix, size_t group, size_t offset,
                                  const BurstTrainOptions& o) {
  bool pseudo = false;
  const std::vector<size_t> cuts = cutsOf(starts, group, offset, prefix.size() - 1, pseudo);
  if (cuts.size() < o.minIterations + 1) return std::nullopt;
  std::vector<double> events;
  for (size_t j = 0; j + 1 < cuts.size(); ++j)
    events.push_back(prefix[cuts[j + 1]] - prefix[cuts[j]]);
  const double median = medianOf(events);
  if (median < o.minEvents) return std::nullopt;
  size_t bestFirst = 0, bestCount = 0;
  for (size_t j = 0; j < events.size();) {
    size_t k = j;
    while (k < events.size() && std::abs(events[k] - median) <= o.tolerance * median) ++k;
    if (k - j > bestCount) bestFirst = j, bestCount = k - j;
    j = std::max(k, j + 1);
  }
  if (bestCount < o.minIterations) return std::nullopt;
  BurstTrain t;
  t.first = cuts[bestFirst];
  t.last = cuts[bestFirst + bestCount];
  t.iterations = bestCount;
  t.group = group;
  // The mean of the measured iterations (the last one's length is only assumed).
  const bool endsAtPseudo = pseudo && bestFirst + bestCount + 1 == cuts.size();
  const size_t measured = endsAtPseudo ? bestCount - 1 : bestCount;
  t.period =
      static_cast<double>(cuts[bestFirst + measured] - t.first) / static_cast<double>(measured);
  const size_t middle = bestFirst + bestCount / 2;
  t.middleStart = cuts[middle];
  t.middleLength = cuts[middle + 1] - cuts[middle];
  return t;
}

}  // namespace

std::optional<BurstTrain> findBurstTrain(std::span<const double> signal,
                                         std::span<const double> events,
                                         const BurstTrainOptions& o) {
  const std::vector<size_t> starts = burstStarts(signal);
  if (starts.size() < o.minIterations) return std::nullopt;
  std::vector<double> prefix(signal.size() + 1, 0.0);
  for (size_t i = 0; i < signal.size(); ++i)
    prefix[i + 1] = prefix[i] + (i < events.size() ? events[i] : 0.0);
  std::vector<BurstTrain> trains;
  for (size_t group = 1; group <= o.maxGroup; ++group)
    for (size_t offset = 0; offset < group; ++offset)
      if (auto t = trainOf(starts, prefix, group, offset, o)) trains.push_back(*t);
  if (trains.empty()) return std::nullopt;
  size_t widest = 0;
  for (const BurstTrain& t : trains) widest = std::max(widest, t.last - t.first);
  std::optional<BurstTrain> best;
  for (const BurstTrain& t : trains) {
    if (10 * (t.last - t.first) < 9 * widest) continue;
    const bool fewer = best && t.group < best->group;
    const bool wider =
        best && t.group == best->group && t.last - t.first > best->last - best->first;
    if (!best || fewer || wider) best = t;
  }
  return best;
}

}  // namespace mtf::structure
