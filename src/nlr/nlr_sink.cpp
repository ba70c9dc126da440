#include "nlr/nlr_sink.hpp"

#include <algorithm>

namespace mtf::nlr {

struct NlrSink::LocationState {
  LocationState(const SignatureOptions& s, const SignatureContext& r, LocationId loc,
                const NlrOptions& n)
      : extractor(s, r, loc), nlr(n) {}
  SignatureExtractor extractor;
  SignatureTable table;
  Nlr nlr;
  uint64_t eventsRead = 0;
};

NlrSink::NlrSink(const NlrOptions& nlr, const SignatureOptions& signatures,
                 std::optional<LocationId> onlyLocation)
    : nlrOptions_(nlr), signatureOptions_(signatures), onlyLocation_(onlyLocation) {}

NlrSink::~NlrSink() = default;

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
    if (!slot)
      slot = std::make_unique<LocationState>(signatureOptions_, *ranks_, location, nlrOptions_);
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
  for (const Signature& s : state.extractor.release(e)) state.nlr.push(state.table.intern(s));
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
}

void NlrSink::end() {
  for (auto& [id, state] : states_) {
    for (const Signature& s : state->extractor.releaseHeld())
      state->nlr.push(state->table.intern(s));
  }
}

std::vector<LocationLoops> NlrSink::results() const {
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
    loops.model = state.nlr.model(state.table.all());
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
