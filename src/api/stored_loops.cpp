#include "api/stored_loops.hpp"

#include <map>
#include <memory>
#include <set>

#include "api/stored_model.hpp"
#include "nlr/loop_annotation.hpp"
#include "registry/registry.hpp"

namespace mtf::api_impl {
namespace {

const compaction::Annotation* loopAnnotation(const std::vector<compaction::Annotation>& all) {
  return compaction::findAnnotation(all, nlr::kLoopAnnotationName);
}

// Hands on only the events of `wanted`'s locations.
class LocationFilter : public TraceSink {
 public:
  LocationFilter(TraceSink& inner, const std::set<LocationId>& wanted)
      : inner_(inner), wanted_(wanted) {}
  void begin(const Definitions& defs) override { inner_.begin(defs); }
  void event(const Event& e) override {
    if (wanted_.count(e.location)) inner_.event(e);
  }
  void end() override { inner_.end(); }

 private:
  TraceSink& inner_;
  const std::set<LocationId>& wanted_;
};

// The nests of `missing`, recomputed from their events as the writer computes them.
std::map<LocationId, nlr::LocationLoops> recomputed(const std::string& path,
                                                    const std::set<LocationId>& missing) {
  nlr::NlrSink nlr(nlr::NlrOptions{}, nlr::storedSignatureOptions());
  LocationFilter filter(nlr, missing);
  auto source = openTrace(path, ReadOptions{});
  // Only the missing locations' chunks are decoded where the reader can skip the others.
  source->restrictToLocations({missing.begin(), missing.end()});
  source->read(filter);
  std::map<LocationId, nlr::LocationLoops> out;
  for (nlr::LocationLoops& l : nlr.results()) out[l.location] = std::move(l);
  return out;
}

nlr::LocationLoops decodedLoops(const std::string& path, const compaction::LocationModel& location,
                                const compaction::Annotation& a, const Definitions& defs,
                                const nlr::SignatureContext& context) {
  nlr::LocationLoops l;
  l.location = location.location;
  if (const DefRecord* def = defs.find(DefKind::Location, location.location))
    l.name = std::string(defs.string(def->field("name")));
  l.worldRank = context.worldRankOfLocation(location.location);
  l.model =
      nlr::decodeLoopModel(a.bytes(), path + ": location " + std::to_string(location.location) +
                                          " annotation nlr.loops");
  l.eventsRead = l.model.eventsIn;
  return l;
}

}  // namespace

std::optional<StoredLoops> storedLoops(const std::string& path, std::optional<uint64_t> only) {
  const auto model = storedCompactModel(path);
  if (!model) return std::nullopt;
  // The writer left out the nests that did not summarise their events: recompute those.
  const bool leftOut = loopAnnotation(model->annotations) != nullptr;
  std::set<LocationId> missing;
  for (const compaction::LocationModel& location : model->locations)
    if (leftOut && location.eventCount > 0 && (!only || location.location == *only) &&
        !loopAnnotation(location.annotations))
      missing.insert(location.location);
  std::map<LocationId, nlr::LocationLoops> found;
  if (!missing.empty()) found = recomputed(path, missing);
  StoredLoops stored{model->definitions, {}, missing.size()};
  const nlr::SignatureContext context(stored.defs);
  for (const compaction::LocationModel& location : model->locations) {
    if (only && location.location != *only) continue;
    if (const compaction::Annotation* a = loopAnnotation(location.annotations))
      stored.loops.push_back(decodedLoops(path, location, *a, stored.defs, context));
    else if (auto it = found.find(location.location); it != found.end())
      stored.loops.push_back(std::move(it->second));
  }
  if (stored.loops.empty() && !leftOut) return std::nullopt;
  return stored;
}

}  // namespace mtf::api_impl
