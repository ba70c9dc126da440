// Event signatures: what NLR compares. A signature keeps what makes two events "the same
// step of the program" (kind, region, partner relative to the own rank, tag,
// communicator, size) and drops what changes every time (timestamps, request ids,
// metric values). Signatures are hash-consed into small integer symbols.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::nlr {

// Which fields make up a signature (the kind always does).
enum SignatureField : uint32_t {
  kFieldRegion = 1,   // Enter/Leave region; for MPI events the enclosing MPI call
  kFieldPartner = 2,  // peer of a point-to-point event (relative), root of a collective
  kFieldTag = 4,
  kFieldComm = 8,
  kFieldSize = 16,   // message length; bytes sent/received of a collective
  kFieldIdent = 32,  // identity of other kinds (metric, parameter, I/O handle, state, ...)
  kAllFields = 63,
};
// Parses "region,partner,tag,comm,size,ident" (or "all"); throws UsageError.
uint32_t parseSignatureFields(const std::string& list);

enum class EventSelection : uint8_t {
  All,            // every event: MPI calls appear as Enter, the MPI event, Leave
  Communication,  // only MPI communication events (send, recv, collective end)
};

// The events EventSelection::Communication keeps: point-to-point MPI events and the ends
// of collectives.
inline constexpr bool isCollectiveEndKind(EventKind k) {
  return k == EventKind::MpiCollectiveEnd || k == EventKind::NonBlockingCollectiveComplete;
}
inline constexpr bool isCommunicationKind(EventKind k) {
  return isMpiPointToPoint(k) || isCollectiveEndKind(k);
}
// Events held for canonical order within one MPI call, at most (then released sorted in
// chunks): a call with millions of events must not grow the extractor.
inline constexpr size_t kMaxHeldInCall = 256;

struct SignatureOptions {
  uint32_t fields = kAllFields;
  EventSelection selection = EventSelection::All;
  // Within one MPI call, put the events in a canonical order (sorted by signature): the
  // order in which MPI_Waitall completes its requests is timing, not program structure.
  // Off, the signature stream follows the trace exactly.
  bool canonicalCallOrder = false;
};

struct Signature {
  EventKind kind = EventKind::Enter;
  bool partnerRelative = false;  // partner is (partner world rank - own world rank)
  uint8_t unused = 0;            // the padding byte, always 0: == compares whole words
  Ref region = kUndefinedRef;
  Ref comm = kUndefinedRef;
  uint32_t tag = 0;
  int64_t partner = 0;
  uint64_t size = 0;
  uint64_t size2 = 0;  // bytes received by a collective
  uint64_t ident = 0;

  // The bytes (no padding, see below): six word comparisons instead of nine fields'.
  bool operator==(const Signature& o) const { return std::memcmp(this, &o, sizeof o) == 0; }
  auto operator<=>(const Signature&) const = default;
  // A one-word key of Signature{k, r}, the signature of an Enter or Leave: kind and region.
  static constexpr uint64_t regionEventKey(EventKind k, Ref r) {
    return static_cast<uint64_t>(k) | uint64_t{r} << 32;
  }
  // Never a key: its kind bits are all 1.
  static constexpr uint64_t kNotRegionEvent = ~uint64_t{0};
};
static_assert(std::has_unique_object_representations_v<Signature>);

struct SignatureHash {
  size_t operator()(const Signature& s) const noexcept;
};

// Hash-consing: the same signature always gets the same symbol (0, 1, 2, ...).
// Streams repeat themselves, so the table first tries the symbol that followed the same
// two symbols last time, then the one that followed the previous symbol (a comparison
// each, no hash), then the hash table. Two symbols of context tell apart what one does
// not: in a loop body, "Enter MPI_Recv" is followed by each of its receives in turn.
// Enters and Leaves, known by one word, are first looked up in a small cache of it.
class SignatureTable {
 public:
  uint32_t intern(const Signature& s) {
    const uint32_t guess = afterPair_[pairSlot()];
    if (guess != kNone && bySymbol_[guess] == s) [[likely]]
      return advance(guess);
    return internUnguessed(s);
  }
  // intern(Signature{kind, region}), the signature of an Enter or Leave.
  uint32_t internRegionEvent(EventKind kind, Ref region) {
    const uint64_t key = Signature::regionEventKey(kind, region);
    const CachedRegionEvent& cached = regionEvents_[regionEventSlot(key)];
    if (cached.key == key) [[likely]]
      return advance(cached.symbol);
    return internUncachedRegionEvent(kind, region);
  }
  const std::vector<Signature>& all() const { return bySymbol_; }
  size_t size() const { return bySymbol_.size(); }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  size_t pairSlot() const { return (recent_ * 0x9E3779B97F4A7C15ull) >> pairShift_; }
  uint32_t advance(uint32_t symbol) {
    recent_ = (recent_ << 32) | symbol;
    return symbol;
  }
  uint32_t internUnguessed(const Signature& s);
  uint32_t internUncachedRegionEvent(EventKind kind, Ref region);
  uint32_t lookup(const Signature& s, uint64_t hash);
  void grow();
  // Open addressing (linear probing), at most half full. A slot holds the upper 32 bits
  // of the hash (compared before the signature) and symbol+1 in the lower 32; 0 = empty.
  std::vector<uint64_t> slots_ = std::vector<uint64_t>(64, 0);
  std::vector<Signature> bySymbol_;
  // Region events: key -> symbol, direct-mapped, overwritten on collisions (a symbol never
  // changes, so entries never go stale). A location enters few regions in its loops.
  struct CachedRegionEvent {
    uint64_t key = Signature::kNotRegionEvent;
    uint32_t symbol = 0;
  };
  static constexpr size_t kCachedRegionEvents = 64;
  // Enter and Leave of one region (kinds 2 and 3) and neighbouring regions: other slots.
  static size_t regionEventSlot(uint64_t key) {
    return (key ^ (key >> 31)) & (kCachedRegionEvents - 1);
  }
  std::array<CachedRegionEvent, kCachedRegionEvents> regionEvents_{};
  // The guesses, only ever checked: (the last two symbols, hashed) -> the symbol that
  // followed them last time (twice the slots, emptied when they grow), and symbol -> the
  // symbol interned after it last time.
  std::vector<uint32_t> afterPair_ = std::vector<uint32_t>(128, kNone);
  unsigned pairShift_ = 57;  // 64 - log2(afterPair_.size())
  std::vector<uint32_t> follower_;
  uint64_t recent_ = ~uint64_t{0};  // the last two symbols interned (kNone: none yet)
};

// What signatures need from the definitions: the world ranks of the members of every
// communicator (OTF2 way) and which regions are MPI calls.
class SignatureContext {
 public:
  explicit SignatureContext(const Definitions& defs);
  bool isMpiRegion(Ref region) const { return region < mpiRegion_.size() && mpiRegion_[region]; }
  int64_t worldRankOfLocation(LocationId location) const { return ranks_.worldRank(location); }
  // The world ranks of a communicator's members (nullptr: COMM_SELF or unknown).
  const std::vector<int64_t>* members(Ref comm) const { return ranks_.members(comm); }
  const RankMap& ranks() const { return ranks_; }

 private:
  RankMap ranks_;
  std::vector<bool> mpiRegion_;
};

// Turns one location's events into signatures. Keeps the stack of open regions (the
// enclosing MPI call of an MPI event): memory is the call depth.
class SignatureExtractor {
 public:
  SignatureExtractor(const SignatureOptions& options, const SignatureContext& ranks,
                     LocationId location);
  // The signature of `e`, or nothing if the selection leaves it out (trace order).
  std::optional<Signature> signatureOf(const Event& e);
  // The signatures `e` releases, in order: with canonicalCallOrder the events of an MPI
  // call are held until its Leave and released sorted; else as signatureOf. The span
  // points into the extractor and stays valid until the next call (no allocation once
  // the buffers have grown to a call's size).
  std::span<const Signature> release(const Event& e) {
    if (options_.canonicalCallOrder) return releaseInCallOrder(e);
    // Trace order (stored loops): the event's own signature, written where it is
    // released from, never copied there (a copy right after the field-wise writes stalls
    // the CPU). Nothing is ever held.
    if (!signatureInto(e, current_)) return {};
    return {&current_, 1};
  }
  // Appends the symbols (interned in `table`) of the signatures `events` release, in order.
  void appendSymbols(std::span<const Event> events, SignatureTable& table,
                     std::vector<uint32_t>& symbols);
  // Releases what is held (at the end of the stream); valid until the next call.
  std::span<const Signature> releaseHeld();
  // The same, appended to `out`.
  void feed(const Event& e, std::vector<Signature>& out);
  void flush(std::vector<Signature>& out);
  int64_t ownWorldRank() const { return ownRank_; }

 private:
  // Fills `s` with the signature of `e`; false if the selection leaves it out.
  bool signatureInto(const Event& e, Signature& s);
  bool writeSignature(const Event& e, Signature& s);  // the same, inline in signature.cpp
  static bool isEnterOrLeave(EventKind k) { return k == EventKind::Enter || k == EventKind::Leave; }
  // After an Enter or Leave of `region` at `time`.
  void trackRegion(EventKind kind, Ref region, Tick time);
  std::span<const Signature> releaseInCallOrder(const Event& e);
  void fillPointToPoint(const Event& e, Signature& s);
  // The region of a send at the time of the last Leave, outside MPI region `open`.
  Ref regionOfSendAtLeave(Ref open) const;
  void fillCollective(const Event& e, Signature& s) const;
  void fillOther(const Event& e, Signature& s) const;
  void applyFieldMask(Signature& s) const;
  size_t depth() const { return openRegions_.size() + overflowDepth_; }
  void trackHeldCall(const Event& e, size_t depthBefore);
  void sortHeld();

  SignatureOptions options_;
  const SignatureContext& context_;
  LocationId ownLocation_;
  int64_t ownRank_;
  std::vector<Ref> openRegions_;
  uint64_t overflowDepth_ = 0;  // Enters beyond kMaxCallDepth
  // The region the last region event left, and when (kUndefinedRef after an Enter).
  Ref leftRegion_ = kUndefinedRef;
  Tick leftTime_ = 0;
  size_t heldDepth_ = 0;  // call depth of the MPI call whose events are held, or 0
  std::vector<Signature> held_;
  bool heldReleased_ = false;        // held_ was handed out by the last call: clear it first
  Signature current_;                // the signature of the last event (released alone)
  Ref lastCommRef_ = kUndefinedRef;  // the communicator of the last point-to-point event
  CommView lastComm_;                // that communicator as this location sees it
};

}  // namespace mtf::nlr
