#include "nlr/signature.hpp"

#include <algorithm>
#include <sstream>

#include "util/error.hpp"

namespace mtf::nlr {

namespace {

// Open regions deeper than this are counted, not stored (a trace of Enters without
// Leaves must not make the extractor grow with the trace length).
constexpr size_t kMaxCallDepth = 4096;
}  // namespace

uint32_t parseSignatureFields(const std::string& list) {
  static const std::pair<const char*, uint32_t> kNames[] = {
      {"region", kFieldRegion}, {"partner", kFieldPartner},
      {"tag", kFieldTag},       {"comm", kFieldComm},
      {"size", kFieldSize},     {"ident", kFieldIdent},
      {"all", kAllFields},      {"kind", 0}};
  uint32_t mask = 0;
  std::stringstream in(list);
  std::string word;
  while (std::getline(in, word, ',')) {
    if (word.empty()) continue;
    bool known = false;
    for (const auto& [name, bit] : kNames) {
      if (word == name) {
        mask |= bit;
        known = true;
      }
    }
    if (!known)
      throw UsageError("--signature: unknown field '" + word +
                       "' (use region,partner,tag,comm,size,ident or all)");
  }
  return mask;
}

size_t SignatureHash::operator()(const Signature& s) const noexcept {
  // Multiply-add over the fields, one final mix: cheap, and enough for a hash table.
  constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ull;
  // Region and comm go in separate rounds: read together as one 8-byte word they would
  // wait for the two 4-byte writes that have just filled them (no store forwarding).
  uint64_t h =
      static_cast<uint64_t>(s.kind) | (uint64_t{s.partnerRelative} << 16) | (uint64_t{s.tag} << 32);
  h = h * kOdd + s.region;
  h = h * kOdd + s.comm;
  h = h * kOdd + static_cast<uint64_t>(s.partner);
  h = h * kOdd + s.size;
  h = h * kOdd + (s.size2 ^ (s.ident << 17));
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  return static_cast<size_t>(h ^ (h >> 32));
}

uint32_t SignatureTable::internUnguessed(const Signature& s) {
  const auto previous = static_cast<uint32_t>(recent_);
  uint32_t symbol = previous == kNone ? kNone : follower_[previous];
  if (symbol == kNone || !(bySymbol_[symbol] == s)) symbol = lookup(s, SignatureHash{}(s));
  afterPair_[pairSlot()] = symbol;  // after lookup: it may have grown the table
  if (previous != kNone) follower_[previous] = symbol;
  return advance(symbol);
}

uint32_t SignatureTable::internUncachedRegionEvent(EventKind kind, Ref region) {
  Signature s;
  s.kind = kind;
  s.region = region;
  const uint32_t symbol = intern(s);
  const uint64_t key = Signature::regionEventKey(kind, region);
  regionEvents_[regionEventSlot(key)] = {key, symbol};
  return symbol;
}

uint32_t SignatureTable::lookup(const Signature& s, uint64_t hash) {
  const size_t mask = slots_.size() - 1;
  const uint64_t tag = hash & ~uint64_t{0xFFFFFFFF};
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint64_t slot = slots_[i];
    if (slot == 0) {
      const auto symbol = static_cast<uint32_t>(bySymbol_.size());
      bySymbol_.push_back(s);
      follower_.push_back(kNone);
      slots_[i] = tag | (uint64_t{symbol} + 1);
      if (2 * bySymbol_.size() > slots_.size()) grow();
      return symbol;
    }
    const auto symbol = static_cast<uint32_t>(slot) - 1;
    if ((slot & ~uint64_t{0xFFFFFFFF}) == tag && bySymbol_[symbol] == s) return symbol;
  }
}

void SignatureTable::grow() {
  std::vector<uint64_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (const uint64_t slot : slots_) {
    if (slot == 0) continue;
    const uint64_t hash = SignatureHash{}(bySymbol_[static_cast<uint32_t>(slot) - 1]);
    size_t i = hash & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = slot;
  }
  slots_ = std::move(slots);
  afterPair_.assign(2 * slots_.size(), kNone);
  --pairShift_;
}

SignatureContext::SignatureContext(const Definitions& defs)
    : ranks_(defs), mpiRegion_(mpiRegionFlags(defs)) {}

SignatureExtractor::SignatureExtractor(const SignatureOptions& options,
                                       const SignatureContext& ranks, LocationId location)
    : options_(options),
      context_(ranks),
      ownLocation_(location),
      ownRank_(ranks.worldRankOfLocation(location)),
      lastComm_(ranks.ranks().view(kUndefinedRef, location)) {}

std::optional<Signature> SignatureExtractor::signatureOf(const Event& e) {
  Signature s;
  if (!signatureInto(e, s)) return std::nullopt;
  return s;
}

// Trace order in one loop, with the signature written inline: no call per event.
void SignatureExtractor::appendSymbols(std::span<const Event> events, SignatureTable& table,
                                       std::vector<uint32_t>& symbols) {
  if (options_.canonicalCallOrder) {
    for (const Event& e : events)
      for (const Signature& s : releaseInCallOrder(e)) symbols.push_back(table.intern(s));
    return;
  }
  // At most one symbol per event: written in place, no capacity check per symbol.
  const size_t start = symbols.size();
  symbols.resize(start + events.size());
  uint32_t* out = symbols.data() + start;
  // Enters and Leaves with every field kept are {kind, region}: checked against the
  // table's guess as such, without writing the signature out first.
  const bool regionsAsSuch =
      options_.fields == kAllFields && options_.selection == EventSelection::All;
  for (const Event& e : events) {
    if (regionsAsSuch && isEnterOrLeave(e.kind)) {
      // Read once: the stores of trackRegion could alias the event's fields, which would
      // be looked up again after them.
      const EventKind kind = e.kind;
      const auto region = static_cast<Ref>(e.fields.data()[0]);
      trackRegion(kind, region, e.time);
      *out++ = table.internRegionEvent(kind, region);
    } else if (writeSignature(e, current_)) {
      *out++ = table.intern(current_);
    }
  }
  symbols.resize(static_cast<size_t>(out - symbols.data()));
}

bool SignatureExtractor::signatureInto(const Event& e, Signature& s) {
  return writeSignature(e, s);
}

[[gnu::always_inline]] inline bool SignatureExtractor::writeSignature(const Event& e,
                                                                      Signature& s) {
  s = Signature{};
  s.kind = e.kind;
  const bool all = options_.selection == EventSelection::All;
  if (isEnterOrLeave(e.kind)) {
    const auto region = static_cast<Ref>(e.fields.data()[0]);
    trackRegion(e.kind, region, e.time);
    if (!all) return false;
    s.region = region;
  } else if (isMpiPointToPoint(e.kind)) {
    fillPointToPoint(e, s);
  } else if (isCollectiveEndKind(e.kind)) {
    fillCollective(e, s);
  } else {
    if (!all) return false;
    fillOther(e, s);
  }
  if (options_.fields != kAllFields) applyFieldMask(s);
  return true;
}

// Keeps the stack of open regions (the enclosing MPI call of an MPI event).
[[gnu::always_inline]] inline void SignatureExtractor::trackRegion(EventKind kind, Ref region,
                                                                   Tick time) {
  if (kind == EventKind::Enter) {
    leftRegion_ = kUndefinedRef;
    if (openRegions_.size() < kMaxCallDepth)
      openRegions_.push_back(region);
    else
      ++overflowDepth_;
  } else if (overflowDepth_ > 0) {
    --overflowDepth_;
  } else if (!openRegions_.empty()) {
    leftRegion_ = openRegions_.back();
    leftTime_ = time;
    openRegions_.pop_back();
  }
}

// Signatures are written where they are released from (current_ or the end of held_),
// never copied there: a copy right after the field-wise writes stalls the CPU.
std::span<const Signature> SignatureExtractor::releaseInCallOrder(const Event& e) {
  if (heldReleased_) {
    held_.clear();
    heldReleased_ = false;
  }
  const bool boundary = e.kind == EventKind::Enter || e.kind == EventKind::Leave;
  if ((!boundary && heldDepth_ == 0) || (boundary && held_.empty())) {
    const size_t depthBefore = depth();
    const bool selected = signatureInto(e, current_);
    if (boundary) trackHeldCall(e, depthBefore);
    return selected ? std::span<const Signature>(&current_, 1) : std::span<const Signature>();
  }
  // A call's held events go out before its Leave (or a nested call), the boundary after.
  if (boundary) sortHeld();
  const size_t depthBefore = depth();
  if (!signatureInto(e, held_.emplace_back())) held_.pop_back();
  if (boundary) {
    trackHeldCall(e, depthBefore);
    heldReleased_ = true;
    return held_;
  }
  if (held_.size() >= kMaxHeldInCall) return releaseHeld();
  return {};
}

// After an Enter or Leave: the events of an outermost MPI call are held.
void SignatureExtractor::trackHeldCall(const Event& e, size_t depthBefore) {
  if (e.kind == EventKind::Enter) {
    if (heldDepth_ == 0 && context_.isMpiRegion(static_cast<Ref>(e.field(0)))) heldDepth_ = depth();
  } else if (depthBefore == heldDepth_) {
    heldDepth_ = 0;
  }
}

std::span<const Signature> SignatureExtractor::releaseHeld() {
  if (heldReleased_) held_.clear();
  sortHeld();
  heldReleased_ = !held_.empty();
  return held_;
}

void SignatureExtractor::sortHeld() {
  // Insertion sort: stable, no allocation, and a call holds only a few events.
  for (size_t i = 1; i < held_.size(); ++i)
    for (size_t j = i; j > 0 && held_[j] < held_[j - 1]; --j) std::swap(held_[j], held_[j - 1]);
}

void SignatureExtractor::feed(const Event& e, std::vector<Signature>& out) {
  const std::span<const Signature> released = release(e);
  out.insert(out.end(), released.begin(), released.end());
}

void SignatureExtractor::flush(std::vector<Signature>& out) {
  const std::span<const Signature> released = releaseHeld();
  out.insert(out.end(), released.begin(), released.end());
}

inline void SignatureExtractor::fillPointToPoint(const Event& e, Signature& s) {
  // Fields: peer rank, comm, tag, length (event_kinds.def). Read before the first store:
  // a store of a 64-bit field of `s` could alias the event's fields, which would then be
  // looked up again (inline or on the heap) after it.
  const uint64_t* fields = e.fields.data();
  const uint64_t peerInComm = fields[0];
  const auto comm = static_cast<Ref>(fields[1]);
  const auto tag = static_cast<uint32_t>(fields[2]);
  const uint64_t size = fields[3];
  s.region = openRegions_.empty() ? kUndefinedRef : openRegions_.back();
  if (e.time == leftTime_ && isSend(e.kind)) [[unlikely]]
    s.region = regionOfSendAtLeave(s.region);
  s.comm = comm;
  s.tag = tag;
  s.size = size;
  if (comm != lastCommRef_) {  // the last communicator is kept at hand
    lastCommRef_ = comm;
    lastComm_ = context_.ranks().view(comm, ownLocation_);
  }
  const int64_t peer = lastComm_.worldRankOf(peerInComm);
  if (peer >= 0 && ownRank_ >= 0) {
    s.partner = peer - ownRank_;
    s.partnerRelative = true;
  } else {
    s.partner = static_cast<int64_t>(peerInComm);
  }
}

// Extrae gives a blocking send when the message left, the end of its call: Paraver's
// communication record follows the call's last event line, at the Leave's time. Such a
// send, outside any MPI call at the time its MPI call ended, belongs to that call. Out of
// line: fillPointToPoint stays small enough to be inlined.
[[gnu::noinline, gnu::cold]] Ref SignatureExtractor::regionOfSendAtLeave(Ref open) const {
  if (leftRegion_ != kUndefinedRef && context_.isMpiRegion(leftRegion_) &&
      !context_.isMpiRegion(open))
    return leftRegion_;
  return open;
}

void SignatureExtractor::fillCollective(const Event& e, Signature& s) const {
  // Fields: op, comm, root, sent, received (event_kinds.def). The root stays absolute
  // (a rank of the communicator): every member names the same root.
  s.region = openRegions_.empty() ? kUndefinedRef : openRegions_.back();
  s.ident = e.field(0);
  s.comm = static_cast<Ref>(e.field(1));
  s.partner = static_cast<int64_t>(e.field(2));
  s.size = e.field(3);
  s.size2 = e.field(4);
}

void SignatureExtractor::fillOther(const Event& e, Signature& s) const {
  // The identity of other kinds: State keeps its state, Generic its type, the rest their
  // first definition reference (metric, parameter, I/O handle, window, ...). Values that
  // change every time (metric values, request ids, end times) are left out.
  if (e.kind == EventKind::State) {
    s.ident = e.fields.size() > 1 ? e.field(1) : 0;
    return;
  }
  if (e.kind == EventKind::Generic) {
    s.ident = e.fields.empty() ? 0 : e.field(0);
    return;
  }
  const KindSchema& schema = schemaOf(e.kind);
  for (size_t i = 0; i < schema.fixedCount && i < e.fields.size(); ++i) {
    if (schema.fields[i].type == FieldType::Ref) {
      s.ident = e.field(i);
      return;
    }
  }
}

void SignatureExtractor::applyFieldMask(Signature& s) const {
  const uint32_t f = options_.fields;
  if (!(f & kFieldRegion)) s.region = kUndefinedRef;
  if (!(f & kFieldPartner)) {
    s.partner = 0;
    s.partnerRelative = false;
  }
  if (!(f & kFieldTag)) s.tag = 0;
  if (!(f & kFieldComm)) s.comm = kUndefinedRef;
  if (!(f & kFieldSize)) s.size = s.size2 = 0;
  if (!(f & kFieldIdent)) s.ident = 0;
}

}  // namespace mtf::nlr
