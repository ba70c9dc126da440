#include "structure/signal.hpp"

#include <algorithm>
#include <array>

#include "util/error.hpp"

namespace mtf::structure {

const char* const kSignalKindsHelp =
    "p2p (processes in MPI point-to-point calls), collective (in MPI collectives), mpi (in "
    "any MPI call), flush (flushing their trace buffer), region:NAME (in the region NAME), "
    "metric:NAME (the metric's value, summed over locations), events (events per bin)";

SignalSpec parseSignalSpec(std::string_view text) {
  static const std::pair<std::string_view, SignalKind> plain[] = {
      {"p2p", SignalKind::PointToPoint},
      {"collective", SignalKind::Collective},
      {"mpi", SignalKind::Mpi},
      {"flush", SignalKind::Flush},
      {"events", SignalKind::Events}};
  for (const auto& [name, kind] : plain)
    if (text == name) return {kind, ""};
  for (const auto& [prefix, kind] :
       {std::pair<std::string_view, SignalKind>{"region:", SignalKind::Region},
        {"metric:", SignalKind::Metric}})
    if (text.starts_with(prefix) && text.size() > prefix.size())
      return {kind, std::string(text.substr(prefix.size()))};
  throw UsageError("--what " + std::string(text) + ": expected " + kSignalKindsHelp);
}

std::string signalName(const SignalSpec& spec) {
  switch (spec.kind) {
    case SignalKind::PointToPoint:
      return "p2p";
    case SignalKind::Collective:
      return "collective";
    case SignalKind::Mpi:
      return "mpi";
    case SignalKind::Flush:
      return "flush";
    case SignalKind::Region:
      return "region:" + spec.name;
    case SignalKind::Metric:
      return "metric:" + spec.name;
    case SignalKind::Events:
      return "events";
  }
  return "?";
}

TimeGrid TimeGrid::covering(Tick first, Tick last, size_t maxBins) {
  if (maxBins == 0) throw UsageError("the number of bins must be at least 1");
  if (last < first) last = first;
  const Tick span = last - first + 1;  // the last tick belongs to the grid
  TimeGrid g;
  g.start = first;
  g.width = std::max<Tick>(1, (span + maxBins - 1) / maxBins);
  g.bins = static_cast<size_t>((span + g.width - 1) / g.width);
  return g;
}

bool declaredSpan(const Definitions& defs, Tick& first, Tick& last) {
  if (defs.clock.traceLength == 0) return false;
  first = defs.clock.globalOffset;
  last = defs.clock.globalOffset + defs.clock.traceLength;
  return true;
}

void BinAccumulator::addInterval(Tick from, Tick to, double weight) {
  if (to <= from) return;
  from = std::clamp(from, grid_.start, grid_.end());
  to = std::clamp(to, grid_.start, grid_.end());
  if (to <= from) return;
  const size_t a = grid_.binOf(from), b = grid_.binOf(to - 1);
  if (a == b) {
    partial_[a] += weight * static_cast<double>(to - from);
    return;
  }
  partial_[a] += weight * static_cast<double>(grid_.binStart(a + 1) - from);
  partial_[b] += weight * static_cast<double>(to - grid_.binStart(b));
  whole_[a + 1] += weight;  // bins a+1 .. b-1 are covered whole
  whole_[b] -= weight;
}

std::vector<double> BinAccumulator::means() const {
  std::vector<double> out(grid_.bins);
  double whole = 0;
  const double width = static_cast<double>(grid_.width);
  for (size_t b = 0; b < grid_.bins; ++b) {
    whole += whole_[b];
    out[b] = whole + partial_[b] / width;
  }
  return out;
}

}  // namespace mtf::structure
