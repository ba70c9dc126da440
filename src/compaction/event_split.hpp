// Splits an event into its structural signature and its column values, and joins them
// back. Shared by the compactor and the decompactor so both sides agree exactly.
#pragma once

#include <deque>
#include <unordered_map>
#include <vector>

#include "compaction/compact_model.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::compaction {

// Per kind: which fields are structural, and where the communicator of rank fields is.
struct KindLayout {
  std::vector<bool> structural;  // per schema field
  int commField = -1;            // index of the "comm" field, or -1
  // Per schema field, for splitEvent: kValue, kStructural or kRank (structural, stored
  // relative to the own rank in commField).
  enum Action : uint8_t { kValue, kStructural, kRank };
  std::vector<Action> action;
  size_t fixedCount = 0, groupSize = 0;
  // Structural fields among the fixed fields and among one group's (the rest are values).
  size_t fixedStructural = 0, groupStructural = 0;
  // The fixed fields by action, in schema order (splitIfSignature's path for kinds
  // without a group: no test of the action per field).
  struct StructuralField {
    uint8_t index;  // schema field
    uint8_t slot;   // its place among the structural fields (in the signature)
  };
  std::vector<StructuralField> fixedPlainFields;  // kStructural
  std::vector<StructuralField> fixedRankFields;   // kRank
  std::vector<uint8_t> fixedValueFields;          // kValue
};
const KindLayout& layoutOf(EventKind kind);

// Own ranks of locations in communicators, cached (RankMap::rankIn is a linear search).
class OwnRanks {
 public:
  explicit OwnRanks(const Definitions& defs) : ranks_(defs) {}
  int64_t rankIn(Ref comm, LocationId location) {
    if (last_ && location == lastLocation_ && comm == lastComm_) [[likely]]
      return lastRank_;
    return lookUp(comm, location);
  }

 private:
  using Known = std::vector<std::pair<Ref, int64_t>>;
  int64_t lookUp(Ref comm, LocationId location);
  RankMap ranks_;
  std::unordered_map<LocationId, Known> cache_;
  LocationId lastLocation_ = 0;
  Known* last_ = nullptr;         // cache_[lastLocation_] (node pointers stay valid)
  Ref lastComm_ = kUndefinedRef;  // the answer of the last call, for lastLocation_
  int64_t lastRank_ = -1;
};

// Fills `sig` with the structure of `e` and the front of `values` with everything else
// (the time is not included); returns the number of values. `values` grows as needed and
// never shrinks (a scratch buffer: no work when the next event has fewer values).
// Throws InputError if the event's field count contradicts its schema.
size_t splitEvent(const Event& e, OwnRanks& ranks, Signature& sig, std::vector<uint64_t>& values);

// splitEvent when its signature is known to be `sig` or else nothing: if `e` splits into
// `sig`, puts its values in front of `values` and returns their number; otherwise
// returns kNotThisSignature (`values` may then hold anything). Cheaper than splitting and
// comparing: the compactor tries the signatures that it predicts.
inline constexpr size_t kNotThisSignature = ~size_t{0};
size_t splitIfSignature(const Event& e, OwnRanks& ranks, const Signature& sig,
                        std::vector<uint64_t>& values);

// True if `sig` has as many structural fields as its kind and repetition count imply
// (checked on signatures read from a file before they are used).
bool signatureWellFormed(const Signature& sig);

// Number of column values of an event with signature `sig`.
size_t valueCountOf(const Signature& sig);

// Rebuilds the event of `location` at `time` from `sig` and `values`
// (valueCountOf(sig) of them).
void joinEvent(const Signature& sig, const uint64_t* values, LocationId location, Tick time,
               OwnRanks& ranks, Event& e);

// joinEvent for the events of one signature at one location, worked out once: the
// fields with the structural ones in place (rank fields made absolute when the
// communicator is structural), and where the values go.
struct JoinPlan {
  EventKind kind = EventKind::Enter;
  uint32_t valueCount = 0;            // valueCountOf(sig): the fields' values, then attributes'
  std::vector<uint64_t> fields;       // the event's fields, the values' places 0
  std::vector<uint32_t> valueFields;  // the fields the values go to, in order
  std::vector<SignatureAttribute> attributes;
  // A rank field or the communicator is a value (no kind has that today): the rank
  // fields are made absolute per event, as joinEvent does.
  bool ranksPerEvent = false;
  int commField = -1;
  std::vector<uint32_t> rankFields;  // fields of type Rank
  // The plan's own event, its structural fields and attributes in place: joinInPlace
  // writes only the time and the values into it (no resize, no copy per event).
  Event ready;
};
JoinPlan planJoin(const Signature& sig, LocationId location, OwnRanks& ranks);
// e.fields set to the `count` fields at `from`, with room for a few more (an event slot
// that is reused for events of several kinds then stops allocating at once).
void assignFields(Event& e, const uint64_t* from, size_t count);
// The rank fields of `e`, joined by `plan` (ranksPerEvent), made absolute.
void fixRanksPerEvent(const JoinPlan& plan, LocationId location, OwnRanks& ranks, Event& e);

// Writes the fields' values (the first of `values`) into their places in `fields`.
inline void putFieldValues(const JoinPlan& plan, const uint64_t* values, uint64_t* fields) {
  const uint32_t* to = plan.valueFields.data();
  const size_t fieldValues = plan.valueFields.size();
  for (size_t i = 0; i < fieldValues; ++i) fields[to[i]] = values[i];
}

// Writes the attribute values (after the fields' values) into e.attributes.
inline void setAttributes(const JoinPlan& plan, const uint64_t* values, Event& e) {
  if (plan.attributes.empty()) [[likely]] {
    e.attributes.clear();
    return;
  }
  e.attributes.resize(plan.attributes.size());
  for (size_t i = 0; i < plan.attributes.size(); ++i)
    e.attributes[i] = EventAttribute{plan.attributes[i].attribute, plan.attributes[i].type,
                                     values[plan.valueFields.size() + i]};
}

// joinEvent(sig, ...) by its plan, into an event slot that may hold any event.
inline void joinPlanned(const JoinPlan& plan, const uint64_t* values, LocationId location,
                        Tick time, OwnRanks& ranks, Event& e) {
  e.kind = plan.kind;
  e.location = location;
  e.time = time;
  const size_t count = plan.fields.size();
  const uint64_t* from = plan.fields.data();
  if (e.fields.size() == count) [[likely]] {
    uint64_t* fields = e.fields.data();
    for (size_t i = 0; i < count; ++i) fields[i] = from[i];  // a few: no memcpy call
  } else {
    assignFields(e, from, count);
  }
  putFieldValues(plan, values, e.fields.data());
  if (plan.ranksPerEvent) [[unlikely]]
    fixRanksPerEvent(plan, location, ranks, e);
  setAttributes(plan, values, e);
}

// joinEvent(sig, ...) by its plan, into plan.ready (valid until the next join by this
// plan): only the time and the values are written.
inline const Event& joinInPlace(JoinPlan& plan, const uint64_t* values, Tick time,
                                OwnRanks& ranks) {
  Event& e = plan.ready;
  if (plan.ranksPerEvent) [[unlikely]] {
    joinPlanned(plan, values, e.location, time, ranks, e);  // its rank fields change
    return e;
  }
  e.time = time;
  putFieldValues(plan, values, e.fields.data());
  if (!plan.attributes.empty()) [[unlikely]]
    for (size_t i = 0; i < plan.attributes.size(); ++i)
      e.attributes[i].value = values[plan.valueFields.size() + i];
  return e;
}

// The join plans of one location's signatures, each made on first use.
class LocationJoiner {
 public:
  LocationJoiner(const CompactModel& model, LocationId location)
      : model_(model),
        location_(location),
        ranks_(model.definitions),
        bySig_(model.signatures.size(), nullptr) {}
  JoinPlan& plan(SigId sig) {
    if (JoinPlan* p = bySig_[sig]) [[likely]]
      return *p;
    return make(sig);
  }
  void join(const JoinPlan& plan, const uint64_t* values, Tick time, Event& e) {
    joinPlanned(plan, values, location_, time, ranks_, e);
  }
  LocationId location() const { return location_; }
  OwnRanks& ranks() { return ranks_; }
  const Event& joinInPlace(JoinPlan& plan, const uint64_t* values, Tick time) {
    return compaction::joinInPlace(plan, values, time, ranks_);
  }

 private:
  JoinPlan& make(SigId sig);
  const CompactModel& model_;
  LocationId location_;
  OwnRanks ranks_;
  std::vector<JoinPlan*> bySig_;
  std::deque<JoinPlan> plans_;  // a deque: the plans stay where they are as it grows
};

}  // namespace mtf::compaction
