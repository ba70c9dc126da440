#include "compaction/decompactor.hpp"

#include <algorithm>
#include <optional>

#include "compaction/expander.hpp"
#include "compaction/expansion_lanes.hpp"
#include "compaction/location_expansion.hpp"

namespace mtf::compaction {

void expandLocation(const CompactModel& model, size_t locationIndex, const ExpandOptions& options,
                    TraceSink& sink) {
  LocationExpansion(model, locationIndex, options).run(sink);
}

ModelSource::ModelSource(std::shared_ptr<const CompactModel> model, ExpandOptions options)
    : model_(std::move(model)), options_(std::move(options)) {}

void ModelSource::read(TraceSink& sink) {
  sink.begin(model_->definitions);
  std::vector<size_t> indices;
  for (size_t i = 0; i < model_->locations.size(); ++i) {
    const LocationId id = model_->locations[i].location;
    if (selected_.empty() || std::find(selected_.begin(), selected_.end(), id) != selected_.end())
      indices.push_back(i);
  }
  std::optional<FlatExpansions> flat;
  ExpandOptions options = options_;
  if (!options.flat) options.flat = &flat.emplace(*model_);
  expandLocations(*model_, indices, options, sink);
  sink.end();
}

}  // namespace mtf::compaction
