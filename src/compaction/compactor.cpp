#include "compaction/compactor.hpp"

#include <algorithm>

namespace mtf::compaction {

Compactor::Compactor(CompactorOptions options, ChunkSink chunkSink)
    : options_(options), chunkSink_(std::move(chunkSink)) {}

Compactor::~Compactor() = default;

void Compactor::begin(const Definitions& defs) {
  model_.definitions = defs;
  dag_ = std::make_unique<DagBuilder>(model_);
  ranks_ = std::make_unique<OwnRanks>(model_.definitions);
  if (chunkSink_ && options_.backgroundCompression)
    compressor_ = std::make_unique<ChunkCompressor>(chunkSink_);
}

Compactor::LocationState& Compactor::stateOf(LocationId id) {
  if (last_ && last_->id == id) return *last_;
  auto [it, inserted] = stateIndex_.try_emplace(id, states_.size());
  if (inserted) {
    auto s = std::make_unique<LocationState>();
    s->id = id;
    s->stack.emplace_back();
    s->encoder = std::make_unique<ColumnEncoder>(options_.chunkEvents, options_.timePrediction);
    states_.push_back(std::move(s));
  }
  last_ = states_[it->second].get();
  return *last_;
}

void Compactor::record(LocationState& s, uint32_t context, Tick time) {
  s.encoder->add(context, time, scratchValues_.data(), scratchValues_.size());
  ++s.events;
  if (s.encoder->full()) flushChunk(s);
}

void Compactor::flushChunk(LocationState& s) {
  if (s.encoder->empty()) return;
  if (compressor_) {
    PendingChunk pending;
    s.encoder->finishPayload(s.chunkStart, options_.zlibLevel, pending);
    s.chunkStart = s.events;
    compressor_->submit(s.id, std::move(pending));
    return;
  }
  ColumnChunk chunk = s.encoder->finish(s.chunkStart, options_.zlibLevel);
  s.chunkStart = s.events;
  if (chunkSink_) {
    chunkSink_(s.id, std::move(chunk));
  } else {
    // Kept in the model: the location model is created at end(); park it meanwhile.
    LocationModel* l = model_.findLocation(s.id);
    if (!l) {
      model_.locations.emplace_back();
      l = &model_.locations.back();
      l->location = s.id;
    }
    l->columns.push_back(std::move(chunk));
  }
}

void Compactor::event(const Event& e) {
  LocationState& s = stateOf(e.location);
  splitEvent(e, *ranks_, scratchSig_, scratchValues_);
  const SigId sig = dag_->intern(scratchSig_);
  if (e.kind == EventKind::Enter) {
    s.stack.push_back(OpenCall{sig, regionOf(scratchSig_), {}});
    record(s, enterContext(sig), e.time);
    return;
  }
  if (e.kind == EventKind::Leave && s.stack.size() > 1) {
    OpenCall call = std::move(s.stack.back());
    s.stack.pop_back();
    const NodeId node = dag_->call(call.enter, sig, std::move(call.children));
    dag_->append(s.stack.back().children, node, 1, s.stack.back().region);
    record(s, nodeContext(node), e.time);
    return;
  }
  // Any other event, and a Leave that closes no open call, is a leaf.
  const NodeId node = dag_->leaf(sig);
  dag_->append(s.stack.back().children, node, 1, s.stack.back().region);
  record(s, nodeContext(node), e.time);
}

void Compactor::finishLocation(LocationState& s) {
  flushChunk(s);
  // Calls still open when the trace ends (cut mid-call) become calls without a Leave.
  while (s.stack.size() > 1) {
    OpenCall call = std::move(s.stack.back());
    s.stack.pop_back();
    const NodeId node = dag_->call(call.enter, kNoSig, std::move(call.children));
    dag_->append(s.stack.back().children, node, 1, s.stack.back().region);
  }
  const NodeId root = dag_->sequence(std::move(s.stack.back().children));
  s.stack.clear();
  LocationModel* l = model_.findLocation(s.id);
  if (!l) {
    model_.locations.emplace_back();
    l = &model_.locations.back();
    l->location = s.id;
  }
  l->root = root;
  l->eventCount = s.events;
}

void Compactor::end() {
  for (auto& s : states_) finishLocation(*s);
  if (compressor_) {
    compressor_->finish();  // every chunk is with the sink before the model is final
    compressor_.reset();
  }
  // Locations in definition order; undefined ones after, in order of appearance.
  std::unordered_map<LocationId, size_t> order;
  for (const LocationView& v : model_.definitions.locations()) order.emplace(v.id, order.size());
  std::unordered_map<LocationId, size_t> appearance;
  for (const auto& s : states_) appearance.emplace(s->id, appearance.size());
  std::stable_sort(
      model_.locations.begin(), model_.locations.end(),
      [&](const LocationModel& a, const LocationModel& b) {
        const auto ia = order.find(a.location), ib = order.find(b.location);
        const size_t ka = ia != order.end() ? ia->second : order.size() + appearance[a.location];
        const size_t kb = ib != order.end() ? ib->second : order.size() + appearance[b.location];
        return ka < kb;
      });
  states_.clear();
  stateIndex_.clear();
  last_ = nullptr;
}

}  // namespace mtf::compaction
