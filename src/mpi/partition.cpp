#include "mpi/partition.hpp"

#include <algorithm>

namespace mtf::mpi {

std::vector<Share> splitByWeight(const std::vector<uint64_t>& weights, size_t parts) {
  if (parts == 0) return {};
  std::vector<unsigned __int128> prefix(weights.size() + 1, 0);
  for (size_t i = 0; i < weights.size(); ++i) prefix[i + 1] = prefix[i] + weights[i];
  const unsigned __int128 total = prefix.back();
  std::vector<size_t> bounds(parts + 1, 0);
  bounds[parts] = weights.size();
  for (size_t p = 1; p < parts; ++p) {
    // Boundary p: the index whose prefix is closest to p/parts of the total (ties: the
    // earlier one), never before the previous boundary.
    const unsigned __int128 target = total * p / parts;
    size_t i = std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin();
    if (i > 0 && target - prefix[i - 1] <= (i < prefix.size() ? prefix[i] - target : 0)) --i;
    if (total == 0) i = weights.size() * p / parts;  // nothing known: by count
    bounds[p] = std::clamp(i, bounds[p - 1], weights.size());
  }
  std::vector<Share> shares(parts);
  for (size_t p = 0; p < parts; ++p) shares[p] = {bounds[p], bounds[p + 1]};
  return shares;
}

std::vector<uint64_t> locationWeights(const Definitions& defs,
                                      const std::map<LocationId, uint64_t>& estimates) {
  std::vector<uint64_t> weights;
  uint64_t knownSum = 0, known = 0;
  for (const LocationView& l : defs.locations()) {
    const auto it = estimates.find(l.id);
    if (it == estimates.end()) continue;
    knownSum += it->second;
    ++known;
  }
  const uint64_t fallback = known == 0 ? 1 : std::max<uint64_t>(1, knownSum / known);
  for (const LocationView& l : defs.locations()) {
    const auto it = estimates.find(l.id);
    weights.push_back(it == estimates.end() ? fallback : it->second);
  }
  return weights;
}

}  // namespace mtf::mpi
