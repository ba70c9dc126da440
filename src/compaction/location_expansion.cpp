#include "compaction/location_expansion.hpp"

namespace mtf::compaction {

LocationExpansion::LocationExpansion(const CompactModel& model, size_t index,
                                     const ExpandOptions& options, LocationJoiner* joiner)
    : model_(model),
      location_(model.locations.at(index)),
      index_(index),
      options_(options),
      ownJoiner_(joiner ? nullptr : std::make_unique<LocationJoiner>(model, location_.location)),
      joiner_(joiner ? *joiner : *ownJoiner_),
      expander_(model, location_.root, options.flat) {}

void LocationExpansion::run(TraceSink& sink) {
  SinkOutput out(sink, options_);
  uint64_t beforeEnd = 0;  // the end of the last chunk wholly before the window
  for (size_t c = 0; c < location_.columns.size(); ++c) {
    const ColumnChunk& meta = location_.columns[c];
    if (meta.maxTime < options_.window.from) beforeEnd = meta.firstEvent + meta.eventCount;
    if (!options_.window.all() &&
        (meta.maxTime < options_.window.from || meta.minTime > options_.window.to))
      continue;
    if (options_.prefix && !prefixDone_) skipToWindow(meta.firstEvent, sink);
    expandChunk(c, out);
  }
  // Nothing in the window: still, the calls open at its start are entered again.
  if (options_.prefix && !prefixDone_) skipToWindow(beforeEnd, sink);
}

// With a prefix sink: skips to `event`, the first in the window, and emits what the
// events before it leave open.
void LocationExpansion::skipToWindow(uint64_t event, TraceSink& sink) {
  skipTo(event);
  if (options_.window.from > 0) emitPrefix(effect_, options_.window.from - 1, sink);
}

// Skips the events up to `event`; the first time, with a prefix sink, works out what
// they leave open (ExpandOptions::prefix) into effect_.
void LocationExpansion::skipTo(uint64_t event) {
  if (!options_.prefix || prefixDone_) {
    expander_.skip(event - position_);
    position_ = event;
    return;
  }
  struct Visitor : Expander::SkipVisitor {
    explicit Visitor(const CompactModel& m) : prefix(m) {}
    void event(SigId sig) override { prefix.event(sig); }
    void subtree(NodeId node, uint64_t times) override { prefix.subtree(node, times); }
    CutPrefix prefix;
  } visitor(model_);
  expander_.skip(event - position_, &visitor);
  position_ = event;
  prefixDone_ = true;
  effect_ = visitor.prefix.effect();
}

void LocationExpansion::emitPrefix(const CutEffect& effect, Tick at, TraceSink& sink) {
  Event event;
  auto joinZeros = [&](SigId sig) {
    const JoinPlan& plan = joiner_.plan(sig);
    zeros_.assign(plan.valueCount, 0);
    joiner_.join(plan, zeros_.data(), at, event);
  };
  for (SigId sig : effect.pushes) {
    joinZeros(sig);
    sink.event(event);
  }
  if (effect.collective == 1) {
    event.set(EventKind::MpiCollectiveBegin, location_.location, at, {});
    sink.event(event);
  }
  for (const auto& [sig, count] : effect.messages) {
    joinZeros(sig);
    options_.prefix->messagesBefore(event, count);
  }
}

const ColumnChunk& LocationExpansion::chunk(size_t c) {
  if (!options_.loader) return location_.columns[c];
  loaded_ = options_.loader(index_, c);
  return loaded_;
}

size_t LocationExpansion::prepareBlock(size_t n, DecodedBlock& block) {
  const size_t walked = expander_.fill(steps_.data(), n);
  size_t values = 0;
  for (size_t i = 0; i < walked; ++i) {
    JoinPlan& plan = joiner_.plan(steps_[i].sig);
    block.plans[i] = &plan;
    block.shapes[i] = &plan.ready;
    block.valueAt[i] = values;
    contexts_[i] = steps_[i].context;
    counts_[i] = plan.valueCount;
    values += plan.valueCount;
  }
  if (block.values.size() < values) block.values.resize(values);
  return walked;
}

void LocationExpansion::fail(size_t c, uint64_t event, const std::string& what) const {
  throw InputError(
      options_.sourceName,
      "location " + std::to_string(location_.location) + ", event " + std::to_string(event),
      "column chunk " + std::to_string(c) + ": " + what);
}

}  // namespace mtf::compaction
