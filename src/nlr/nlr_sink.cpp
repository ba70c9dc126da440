#include "nlr/nlr_sink.hpp"

#include <algorithm>
#include <stdexcept>

namespace mtf::nlr {

struct NlrSink::LocationState {
  LocationState(const SignatureOptions& s, const SignatureContext& r, LocationId loc,
                const NlrOptions& n)
      : extractor(s, r, loc), nlr(n) {}
  SignatureExtractor extractor;
  SignatureTable table;
  Nlr nlr;
  uint64_t eventsRead = 0;
  std::unique_ptr<CommunicationStream> derived;  // with deriveCommunicationStream()
};

NlrSink::NlrSink(const NlrOptions& nlr, const SignatureOptions& signatures,
                 std::optional<LocationId> onlyLocation)
    : nlrOptions_(nlr), signatureOptions_(signatures), onlyLocation_(onlyLocation) {}

NlrSink::~NlrSink() = default;

void NlrSink::deriveCommunicationStream() {
  const SignatureOptions& o = signatureOptions_;
  // The derivation reads Enters, Leaves and communication events from the stored symbols:
  // they must be every event's, with every field, in trace order.
  if (o.fields != kAllFields || o.selection != EventSelection::All || o.canonicalCallOrder)
    throw std::logic_error("NlrSink: a communication stream derives from the stored view only");
  deriveCommunication_ = true;
}

void NlrSink::begin(const Definitions& defs) {
  defs_ = defs;
  ranks_ = std::make_unique<SignatureContext>(defs_);
  states_.clear();
  byDenseId_.clear();
  lastState_ = nullptr;
  lastLocation_ = kUndefinedId;
}

[[gnu::noinline]] NlrSink::LocationState& NlrSink::switchTo(LocationId location) {
  LocationState* state = location < byDenseId_.size() ? byDenseId_[location] : nullptr;
  if (!state) {
    std::unique_ptr<LocationState>& slot = states_[location];
    if (!slot) {
      slot = std::make_unique<LocationState>(signatureOptions_, *ranks_, location, nlrOptions_);
      if (deriveCommunication_)
        slot->derived = std::make_unique<CommunicationStream>(*ranks_, nlrOptions_);
    }
    state = slot.get();
    if (location < kDenseIds) {
      if (location >= byDenseId_.size()) byDenseId_.resize(location + 1, nullptr);
      byDenseId_[location] = state;
    }
  }
  lastState_ = state;
  lastLocation_ = location;
  return *state;
}

void NlrSink::event(const Event& e) {
  if (onlyLocation_ && e.location != *onlyLocation_) return;
  LocationState& state = stateOf(e.location);
  ++state.eventsRead;
  for (const Signature& s : state.extractor.release(e)) {
    const uint32_t symbol = state.table.intern(s);
    state.nlr.push(symbol);
    if (state.derived) state.derived->push({&symbol, 1}, state.table.all());
  }
}

void NlrSink::eventsOf(const EventBatch& batch) {
  const Event* events = batch.events.data();
  for (size_t first = 0; first < batch.size;) {
    const LocationId location = events[first].location;
    size_t last = first;
    // The fields of a batch were written on another core: asked for as the run is found.
    for (; last < batch.size && events[last].location == location; ++last)
      __builtin_prefetch(events[last].fields.data());
    if (!onlyLocation_ || location == *onlyLocation_)
      pushRun(stateOf(location), {events + first, last - first});
    first = last;
  }
}

void NlrSink::pushRun(LocationState& state, std::span<const Event> run) {
  state.eventsRead += run.size();
  runSymbols_.clear();
  state.extractor.appendSymbols(run, state.table, runSymbols_);
  state.nlr.push(runSymbols_, state.table.size());
  if (state.derived) state.derived->push(runSymbols_, state.table.all());
}

void NlrSink::end() {
  for (auto& [id, state] : states_) {
    for (const Signature& s : state->extractor.releaseHeld())
      state->nlr.push(state->table.intern(s));
    if (state->derived) state->derived->finish(state->table.all());
  }
}

std::vector<LocationLoops> NlrSink::results() const {
  return resultsOf(false);
}

std::vector<LocationLoops> NlrSink::derivedResults() const {
  if (!deriveCommunication_) throw std::logic_error("NlrSink: no communication stream derived");
  return resultsOf(true);
}

std::vector<LocationLoops> NlrSink::resultsOf(bool derived) const {
  const DefinitionOrder definitionOrder(defs_);
  std::vector<LocationId> order;
  for (const auto& [id, state] : states_) order.push_back(id);
  std::sort(order.begin(), order.end(), [&](LocationId a, LocationId b) {
    return definitionOrder.key(a) < definitionOrder.key(b);
  });

  std::vector<LocationLoops> out;
  for (LocationId id : order) {
    const LocationState& state = *states_.at(id);
    LocationLoops loops;
    loops.location = id;
    if (const DefRecord* def = defs_.find(DefKind::Location, id))
      loops.name = std::string(defs_.string(def->field("name")));
    loops.worldRank = state.extractor.ownWorldRank();
    loops.eventsRead = state.eventsRead;
    loops.model = derived ? state.derived->model() : state.nlr.model(state.table.all());
    out.push_back(std::move(loops));
  }
  return out;
}

size_t NlrSink::workingBytes() const {
  size_t total = 0;
  for (const auto& [id, state] : states_) total += state->nlr.workingBytes();
  return total;
}

}  // namespace mtf::nlr
