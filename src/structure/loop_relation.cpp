#include "structure/loop_relation.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <unordered_map>

namespace mtf::structure {

namespace {

// Events an element stands for (a loop: its count times its body's).
class ExpandedLengths {
 public:
  explicit ExpandedLengths(const nlr::LoopModel& m) : model_(m) {}
  uint64_t of(nlr::ElementKey k) {
    if (!nlr::isLoop(k)) return 1;
    return nlr::countOf(k) * body(nlr::bodyOf(k));
  }
  uint64_t body(uint32_t id) {
    if (auto it = memo_.find(id); it != memo_.end()) return it->second;
    uint64_t n = 0;
    for (nlr::ElementKey k : model_.bodies[id]) n += of(k);
    return memo_[id] = n;
  }

 private:
  const nlr::LoopModel& model_;
  std::unordered_map<uint32_t, uint64_t> memo_;
};

}  // namespace

std::optional<OuterLoop> outermostLoop(const std::vector<nlr::LocationLoops>& loops) {
  const nlr::LocationLoops* chosen = nullptr;
  for (const auto& l : loops)
    if (!chosen || l.worldRank == 0) {
      chosen = &l;
      if (l.worldRank == 0) break;
    }
  if (!chosen) return std::nullopt;
  ExpandedLengths lengths(chosen->model);
  std::optional<OuterLoop> best;
  uint64_t at = 0, bestLength = 0;
  for (nlr::ElementKey k : chosen->model.top) {
    const uint64_t length = lengths.of(k);
    if (nlr::isLoop(k) && length > bestLength) {
      bestLength = length;
      best = OuterLoop{chosen->location, chosen->worldRank, nlr::countOf(k), at,
                       lengths.body(nlr::bodyOf(k))};
    }
    at += length;
  }
  return best;
}

SymbolTimes::SymbolTimes(LocationId location, std::vector<uint64_t> indices)
    : location_(location), indices_(std::move(indices)), times_(indices_.size()) {}

void SymbolTimes::event(const Event& e) {
  if (e.location != location_) return;
  if (!isMpiPointToPoint(e.kind) && e.kind != EventKind::MpiCollectiveEnd) return;
  for (size_t i = 0; i < indices_.size(); ++i)
    if (indices_[i] == seen_) times_[i] = e.time;
  ++seen_;
}

namespace {

struct LevelZone {
  const StructureRegion* zone = nullptr;
  unsigned level = 0;
};

void collectZones(const std::vector<StructureRegion>& regions, unsigned level,
                  std::vector<LevelZone>& out) {
  for (const auto& r : regions) {
    if (r.kind == RegionKind::Periodic) out.push_back({&r, level});
    collectZones(r.children, level + 1, out);
  }
}

// The zone to compare with: the one (at any level) whose period is nearest the loop's
// iteration time; between equally near ones, the first found (the outer level, in time order).
LevelZone nearestZone(const std::vector<StructureRegion>& regions, double iterationTicks) {
  std::vector<LevelZone> zones;
  collectZones(regions, 1, zones);
  LevelZone best;
  double bestOff = 0;
  for (const LevelZone& z : zones) {
    if (z.zone->period == 0) continue;
    const double off = std::abs(std::log(static_cast<double>(z.zone->period) / iterationTicks));
    if (!best.zone || off < bestOff) best = z, bestOff = off;
  }
  return best;
}

// When the periods disagree: is one a whole multiple of the other (a super-period)?
std::string multipleNote(double zonePeriod, double iterationTicks) {
  const bool loopLonger = iterationTicks > zonePeriod;
  const double ratio = loopLonger ? iterationTicks / zonePeriod : zonePeriod / iterationTicks;
  const double k = std::round(ratio);
  if (k < 2 || std::abs(ratio - k) > 0.05 * k) return "";
  char text[128];
  std::snprintf(text, sizeof text, " (%s is %.0f times %s)",
                loopLonger ? "NLR's iteration" : "the zone's period", k,
                loopLonger ? "the zone's period" : "NLR's iteration");
  return text;
}

}  // namespace

std::string relateLoopAndZones(const LoopTiming& t, const std::vector<StructureRegion>& regions,
                               uint64_t resolution, double tolerance) {
  const LevelZone nearest = nearestZone(regions, t.iterationTicks);
  const double ms = 1000.0 / static_cast<double>(resolution);
  char line[384];
  if (!nearest.zone) {
    std::snprintf(line, sizeof line,
                  "NLR outer loop (location %llu): %llu iterations of %.3f ms; no periodic zone",
                  static_cast<unsigned long long>(t.loop.location),
                  static_cast<unsigned long long>(t.loop.iterations), t.iterationTicks * ms);
    return line;
  }
  const StructureRegion& zone = *nearest.zone;
  const double period = static_cast<double>(zone.period);
  const bool agree = std::abs(period - t.iterationTicks) <= tolerance * t.iterationTicks;
  std::snprintf(line, sizeof line,
                "NLR outer loop (location %llu): %llu iterations of %.3f ms; periodic zone "
                "(level %u) at %.3f ms: %llu iterations of %.3f ms: %s%s",
                static_cast<unsigned long long>(t.loop.location),
                static_cast<unsigned long long>(t.loop.iterations), t.iterationTicks * ms,
                nearest.level, static_cast<double>(zone.start) * ms,
                static_cast<unsigned long long>(zone.iterations), period * ms,
                agree ? "the periods agree" : "the periods DISAGREE",
                agree ? "" : multipleNote(period, t.iterationTicks).c_str());
  return line;
}

}  // namespace mtf::structure
