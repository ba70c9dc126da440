// Splits an event into its structural signature and its column values, and joins them
// back. Shared by the compactor and the decompactor so both sides agree exactly.
#pragma once

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

}  // namespace mtf::compaction
