#include "compaction/compactor.hpp"

#include <algorithm>
#include <array>

namespace mtf::compaction {

Compactor::Compactor(CompactorOptions options, ChunkSink chunkSink, DictionarySink dictionarySink)
    : options_(options),
      chunkSink_(std::move(chunkSink)),
      dictionarySink_(std::move(dictionarySink)),
      budgetLeft_(options.bufferedEventBudget + 1) {
  options_.chunkEvents = std::clamp<uint64_t>(options_.chunkEvents, 1, kMaxChunkEvents);
}

Compactor::~Compactor() = default;

void Compactor::begin(const Definitions& defs) {
  model_.definitions = defs;
  dag_ = std::make_unique<DagBuilder>(model_);
  ranks_ = std::make_unique<OwnRanks>(model_.definitions);
  if (chunkSink_ && options_.backgroundCompression) {
    values::DictionaryGate::DeliverDictionary keep;
    if (options_.columnDictionary && dictionarySink_)
      keep = [this](std::shared_ptr<const values::ZstdDictionary> dictionary) {
        dictionarySink_(*dictionary);
        model_.columnDictionary = std::move(dictionary);
      };
    compressor_ = std::make_unique<ChunkCompressor>(chunkSink_, options_.timePrediction,
                                                    options_.level, 8, std::move(keep));
  }
}

Compactor::LocationState& Compactor::switchLocation(LocationId id) {
  auto [it, inserted] = stateIndex_.try_emplace(id, states_.size());
  if (inserted) {
    auto s = std::make_unique<LocationState>();
    s->id = id;
    s->stack.emplace_back();
    s->encoder = std::make_unique<ColumnEncoder>(options_.chunkEvents, options_.timePrediction);
    if (compressor_) s->raw.reserve(chunkReserve(states_.size() + 1), 0);
    states_.push_back(std::move(s));
  }
  last_ = states_[it->second].get();
  return *last_;
}

// Events to reserve room for in a location's next chunk: a whole chunk, but never more
// than one location's share of the budget (thousands of locations).
uint64_t Compactor::chunkReserve(size_t locations) const {
  return std::min(options_.chunkEvents,
                  options_.bufferedEventBudget / std::max<size_t>(locations, 1));
}

// Once per event: inline.
[[gnu::always_inline]] inline void Compactor::record(LocationState& s, uint32_t context,
                                                     Tick time) {
  if (compressor_) [[likely]] {
    s.raw.add(context, time, scratchValues_.data(), scratchValueCount_);
    if (s.raw.size() >= options_.chunkEvents) [[unlikely]]
      flushChunk(s);
  } else {
    encodeRow(s, context, time);
  }
  // After the event is in its chunk: flushing before would leave it outside every chunk.
  if (--budgetLeft_ == 0) [[unlikely]]
    flushAllChunks();
}

void Compactor::encodeRow(LocationState& s, uint32_t context, Tick time) {
  s.encoder->add(context, time, scratchValues_.data(), scratchValueCount_);
  if (s.encoder->full()) flushChunk(s);
}

void Compactor::flushAllChunks() {
  for (auto& s : states_) flushChunk(*s);
}

void Compactor::flushChunk(LocationState& s) {
  const uint64_t events = eventsInChunk(s);
  budgetLeft_ += events;
  if (events == 0) return;
  if (compressor_) {
    s.raw.firstEvent = s.chunkStart;
    s.chunkStart += events;
    // The next chunk likely holds as many values per event as this one.
    const uint64_t reserved = chunkReserve(states_.size());
    const size_t values = static_cast<size_t>(s.raw.valueCount() * reserved / s.raw.size());
    compressor_->submit(s.id, std::move(s.raw));
    s.raw = RawChunk{};
    s.raw.reserve(reserved, values);
    return;
  }
  ColumnChunk chunk = s.encoder->finish(s.chunkStart, options_.level);
  s.chunkStart += events;
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

// One of the two signatures that followed the location's previous one lately, if `e`
// has it (in loops it nearly always has). Inline into events(): once per event that is not
// a plain Enter or Leave.
[[gnu::always_inline]] inline SigId Compactor::predictedSig(const LocationState& s,
                                                            const Event& e) {
  if (s.lastSig >= nextSig_.size()) return kNoSig;
  Successors& next = nextSig_[s.lastSig];
  const int first = next.first();
  for (const int slot : {first, 1 - first}) {
    const SigId sig = next[slot];
    if (sig == kNoSig) continue;
    const size_t count = splitIfSignature(e, *ranks_, model_.signatures[sig], scratchValues_);
    if (count != kNotThisSignature) {
      scratchValueCount_ = count;
      next.use(slot);
      return sig;
    }
  }
  return kNoSig;
}

SigId Compactor::internEvent(const LocationState& s, const Event& e) {
  scratchValueCount_ = splitEvent(e, *ranks_, scratchSig_, scratchValues_);
  const SigId sig = dag_->intern(scratchSig_);
  // Here only: a plain region event's signature is interned by such an event first.
  rememberRegionSig(e, sig);
  const SigId previous = s.lastSig;
  if (previous != kNoSig) {
    if (previous >= nextSig_.size()) nextSig_.resize(size_t{previous} * 2 + 16);
    nextSig_[previous].add(sig);
  }
  return sig;
}

// As NestingCheck: a Leave of another region than the open Enter's, within the tracked depth.
[[gnu::always_inline]] inline void Compactor::checkLeave(LocationState& s, const Event& e) {
  const uint64_t region = e.fields.empty() ? 0 : e.fields[0];
  if (s.stack[s.depth - 1].regionField != region && s.depth - 1 <= NestingCheck::kTrackedDepth)
      [[unlikely]]
    ++s.nesting.mismatchedLeaves;
}

[[gnu::always_inline]] inline void Compactor::closeCall(LocationState& s, SigId leave) {
  OpenCall& call = s.stack[--s.depth];
  const NodeId node = dag_->call(call.enter, leave, call.children.edges);
  call.children.clear();
  OpenCall& parent = s.stack[s.depth - 1];
  // The edge type DagBuilder::append would look up: the node is a call of call.region.
  const bool recursive = parent.region != kUndefinedRef && call.region == parent.region;
  dag_->appendTyped(parent.children, node, 1, recursive ? EdgeType::Recursive : EdgeType::Regular);
  if (leave != kNoSig) record(s, nodeContext(node), lastTime_);
}

namespace {

// An Enter or Leave without attributes has the region as its only field and no value:
// its signature is known by the region alone once seen (most events of a trace are
// Enter or Leave).
bool isPlainRegionEvent(const Event& e) {
  return (e.kind == EventKind::Enter || e.kind == EventKind::Leave) && e.fields.size() == 1 &&
         e.attributes.empty();
}

}  // namespace

// kNoSig if not known (yet) or not such an event.
[[gnu::always_inline]] inline SigId Compactor::knownRegionSig(const Event& e) const {
  if (!isPlainRegionEvent(e)) return kNoSig;
  const std::vector<SigId>& table = regionSig_[e.kind == EventKind::Leave];
  return e.fields[0] < table.size() ? table[e.fields[0]] : kNoSig;
}

void Compactor::rememberRegionSig(const Event& e, SigId sig) {
  constexpr uint64_t kMaxRegions = uint64_t{1} << 20;  // the tables stay small
  if (!isPlainRegionEvent(e) || e.fields[0] >= kMaxRegions) return;
  std::vector<SigId>& table = regionSig_[e.kind == EventKind::Leave];
  if (e.fields[0] >= table.size()) table.resize(e.fields[0] + 1, kNoSig);
  table[e.fields[0]] = sig;
}

[[gnu::always_inline]] inline SigId Compactor::signatureOf(LocationState& s, const Event& e) {
  SigId sig = knownRegionSig(e);
  if (sig != kNoSig) {
    scratchValueCount_ = 0;
    return s.lastSig = sig;
  }
  sig = predictedSig(s, e);
  if (sig == kNoSig) sig = internEvent(s, e);
  return s.lastSig = sig;
}

// Inline into events(): once per event, its registers saved once per batch.
[[gnu::always_inline]] inline void Compactor::handle(const Event& e) {
  LocationState& s = stateOf(e.location);
  const SigId sig = signatureOf(s, e);
  if (e.kind == EventKind::Enter) {
    if (s.depth == s.stack.size()) s.stack.emplace_back();
    OpenCall& call = s.stack[s.depth++];
    call.enter = sig;
    // regionOf(its signature): an Enter's region is its first field, structural, and it
    // has that field (its signature was found).
    call.region = static_cast<Ref>(e.fields[0]);
    call.regionField = e.fields[0];
    if (s.depth - 1 > s.nesting.maxDepth) s.nesting.maxDepth = s.depth - 1;
    record(s, enterContext(sig), e.time);
    return;
  }
  if (e.kind == EventKind::Leave) {
    if (s.depth > 1) [[likely]] {
      checkLeave(s, e);
      lastTime_ = e.time;
      closeCall(s, sig);
      return;
    }
    ++s.nesting.unmatchedLeaves;
  }
  // Any other event, and a Leave that closes no open call, is a leaf.
  const NodeId node = dag_->leaf(sig);
  // A leaf's edge is Regular (what DagBuilder::append would look up): it is no Sequence
  // and no call of the parent's region.
  dag_->appendTyped(s.stack[s.depth - 1].children, node, 1, EdgeType::Regular);
  record(s, nodeContext(node), e.time);
}

void Compactor::event(const Event& e) {
  handle(e);
}

void Compactor::events(const SharedEventBatch& batch) {
  forEachEvent(*batch, [this](const Event& e) { handle(e); });
}

void Compactor::finishLocation(LocationState& s) {
  flushChunk(s);
  s.nesting.callsNeverLeft = s.depth - 1;
  // Calls still open when the trace ends (cut mid-call) become calls without a Leave.
  while (s.depth > 1) closeCall(s, kNoSig);
  const NodeId root = dag_->sequence(s.stack.front().children.edges);
  s.stack.clear();
  s.depth = 0;
  LocationModel* l = model_.findLocation(s.id);
  if (!l) {
    model_.locations.emplace_back();
    l = &model_.locations.back();
    l->location = s.id;
  }
  l->root = root;
  l->eventCount = s.chunkStart + eventsInChunk(s);
}

void Compactor::end() {
  for (auto& s : states_) finishLocation(*s);
  if (options_.nesting) {
    for (const auto& s : states_) options_.nesting->addCounted(s->id, s->nesting);
    options_.nesting->end();
  }
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
