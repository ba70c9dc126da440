#include "mpi/share.hpp"

#include <algorithm>
#include <unordered_set>

#include "model/event_batch.hpp"
#include "mpi/partition.hpp"
#include "registry/registry.hpp"

namespace mtf::mpi {

namespace {

// Passes on the events of some locations only (readers that cannot skip the others).
class LocationFilterSink : public TraceSink {
 public:
  LocationFilterSink(TraceSink& inner, const ShareInput& share)
      : inner_(inner),
        mine_(share.locations.begin(), share.locations.end()),
        takesUndefined_(share.takesUndefined) {}
  void begin(const Definitions& defs) override {
    for (const LocationView& l : defs.locations()) defined_.insert(l.id);
    inner_.begin(defs);
  }
  void event(const Event& e) override {
    if (mine_.count(e.location) || (takesUndefined_ && !defined_.count(e.location)))
      inner_.event(e);
  }
  void end() override { inner_.end(); }
  LossReport losses() const override { return inner_.losses(); }

 private:
  TraceSink& inner_;
  std::unordered_set<LocationId> mine_;
  std::unordered_set<LocationId> defined_;
  bool takesUndefined_;
};

}  // namespace

ShareInput openShare(const std::string& path, bool lenient, int rank, int size) {
  ReadOptions options;
  options.lenient = lenient;
  ShareInput share;
  share.source = openTrace(path, options);
  const Definitions& defs = share.source->definitions();
  std::vector<LocationId> all;
  for (const LocationView& l : defs.locations()) all.push_back(l.id);
  const std::vector<uint64_t> weights = locationWeights(defs, share.source->eventEstimates());
  const Share mine = splitByWeight(weights, static_cast<size_t>(size)).at(rank);
  share.locations.assign(all.begin() + mine.begin, all.begin() + mine.end);
  share.takesUndefined = rank == size - 1;
  if (!share.locations.empty())
    share.filtered = !share.source->restrictToLocations(share.locations);
  else
    share.filtered = share.takesUndefined;  // only the undefined locations, if any
  return share;
}

void readShare(ShareInput& share, TraceSink& sink) {
  if (share.filtered) {
    LocationFilterSink filter(sink, share);
    share.source->read(filter);
  } else if (!share.locations.empty()) {
    share.source->read(sink);
  } else {
    sink.begin(share.source->definitions());
    sink.end();
  }
}

}  // namespace mtf::mpi
