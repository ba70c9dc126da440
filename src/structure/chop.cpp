#include "structure/chop.hpp"

#include <algorithm>

#include "structure/structure.hpp"
#include "util/error.hpp"

namespace mtf::structure {

ChopWindow chopWindow(const std::vector<StructureRegion>& regions, Tick traceStart, unsigned zone,
                      uint64_t iterations, bool withInit, bool shift) {
  std::vector<const StructureRegion*> zones;
  for (const auto& r : regions)
    if (r.kind == RegionKind::Periodic) zones.push_back(&r);
  if (zones.empty()) throw NoPeriodicZone{};
  if (zone < 1 || zone > zones.size())
    throw UsageError("--zone " + std::to_string(zone) + ": the trace has " +
                     std::to_string(zones.size()) + " periodic zone(s)");
  const StructureRegion& z = *zones[zone - 1];
  if (iterations < 1 || iterations > z.iterations)
    throw UsageError("--iterations must be 1 to " + std::to_string(z.iterations) + " (zone " +
                     std::to_string(zone) + ")");
  ChopWindow w;
  w.shift = shift;
  const Tick length = iterations * z.period;
  if (withInit) {
    w.from = traceStart;
    w.to = std::min(z.end, z.start + length);
  } else {
    w.from = std::max(z.start, std::min(z.sampleStart, z.end > length ? z.end - length : z.start));
    w.to = std::min(z.end, w.from + length);
  }
  return w;
}

}  // namespace mtf::structure
