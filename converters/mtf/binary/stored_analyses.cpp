#include "converters/mtf/binary/stored_analyses.hpp"

namespace mtf::mtfbin {

void attachLoopNests(const nlr::LoopAnnotationSink& loops, compaction::CompactModel& model) {
  for (auto& [location, blob] : loops.blobs()) {
    compaction::LocationModel* l = model.findLocation(location);
    if (!l) continue;
    if (summarises(blob.size(), l->eventCount))
      l->annotations.push_back({nlr::kLoopAnnotationName, {blob.begin(), blob.end()}});
  }
}

void markLeftOutLoopNests(compaction::CompactModel& model) {
  for (const compaction::LocationModel& l : model.locations)
    if (l.eventCount > 0 && !hasLoopNest(l)) {
      model.annotations.push_back({nlr::kLoopAnnotationName, {}});
      return;
    }
}

bool hasLoopNest(const compaction::LocationModel& location) {
  return compaction::findAnnotation(location.annotations, nlr::kLoopAnnotationName) != nullptr;
}

bool storesProgramModel(size_t blobBytes, const compaction::CompactModel& model) {
  uint64_t events = 0;
  for (const compaction::LocationModel& l : model.locations) events += l.eventCount;
  return summarises(blobBytes, events);
}

}  // namespace mtf::mtfbin
