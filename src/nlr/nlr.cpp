#include "nlr/nlr.hpp"

#include <algorithm>
#include <stdexcept>

namespace mtf::nlr {

namespace {

uint64_t hashElements(const ElementKey* elements, size_t length) {
  uint64_t h = 0x84222325CBF29CE4ull ^ length;
  for (size_t i = 0; i < length; ++i) {
    h ^= elements[i];
    h *= 0x100000001B3ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

uint32_t BodyTable::intern(const ElementKey* elements, size_t length) {
  const uint64_t h = hashElements(elements, length);
  const auto [first, last] = byHash_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    const std::vector<ElementKey>& b = bodies_[it->second];
    if (b.size() == length && std::equal(b.begin(), b.end(), elements)) return it->second;
  }
  if (bodies_.size() > kMaxBodyId) throw std::length_error("NLR: too many distinct loop bodies");
  const auto id = static_cast<uint32_t>(bodies_.size());
  bodies_.emplace_back(elements, elements + length);
  byHash_.emplace(h, id);
  return id;
}

size_t LoopPositions::indexOf(ElementKey key) const {
  const size_t mask = entries_.size() - 1;
  size_t i = home(key);
  while (entries_[i].key != 0 && entries_[i].key != key) i = (i + 1) & mask;
  return i;
}

int64_t& LoopPositions::operator[](ElementKey key) {
  size_t i = indexOf(key);
  if (entries_[i].key == key) return entries_[i].position;
  if (2 * (used_ + 1) > entries_.size()) {
    grow();
    i = indexOf(key);
  }
  ++used_;
  entries_[i] = Entry{key, -1};
  return entries_[i].position;
}

void LoopPositions::erase(ElementKey key) {
  const size_t mask = entries_.size() - 1;
  size_t hole = indexOf(key);
  if (entries_[hole].key != key) return;
  // Backward shift: move up every later entry of the cluster whose home does not lie
  // cyclically in (hole, j], so that lookups never meet a gap before their key.
  for (size_t j = (hole + 1) & mask; entries_[j].key != 0; j = (j + 1) & mask) {
    const size_t h = home(entries_[j].key);
    const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
    if (stays) continue;
    entries_[hole] = entries_[j];
    hole = j;
  }
  entries_[hole] = Entry{};
  --used_;
}

void LoopPositions::grow() {
  std::vector<Entry> old(entries_.size() * 2);
  old.swap(entries_);
  --shift_;
  for (const Entry& e : old)
    if (e.key != 0) entries_[indexOf(e.key)] = e;
}

Nlr::Nlr(const NlrOptions& options) : options_(options) {
  options_.minReps = std::max(2u, options_.minReps);
  options_.window = std::max<size_t>(options_.window, options_.minReps);
  maxBody_ = options_.window / options_.minReps;
  size_t table = 1;
  while (table < 2 * options_.window + maxBody_ + 2) table <<= 1;
  extensionAt_.assign(table, -1);
  extensionMask_ = table - 1;
  capacity_ = 2 * options_.window + 2;
  buf_ = std::make_unique_for_overwrite<ElementKey[]>(capacity_);
  prev_ = std::make_unique_for_overwrite<Pos[]>(capacity_);
  extNext_ = std::make_unique_for_overwrite<Pos[]>(capacity_);
  runsEnabled_ = options.periodRuns && maxBody_ <= PeriodRuns::kMaxPeriod;
}

// The run table (~350 KB at the default window) is made the first time the window grows
// past the chain's range: a location whose stream folds never needs it, and traces have
// thousands of locations. It is filled with the live window, as if it had always run.
void Nlr::startRunTable() const {
  runs_.emplace(maxBody_, options_.minReps, options_.window);
  for (size_t i = head_; i < end_; ++i) runs_->record(offset_ + static_cast<Pos>(i), buf_[i]);
}

void Nlr::push(uint32_t symbol) {
  push({&symbol, 1}, symbol + 1);
}

void Nlr::push(std::span<const uint32_t> symbols, size_t symbolCount) {
  if (symbolCount > lastEvent_.size()) lastEvent_.resize(symbolCount, -1);
  pushed_ += symbols.size();
  for (const uint32_t symbol : symbols) pushSymbol(symbol);
}

// While a loop with a body of events only is on top of the window, the stream mostly
// repeats that body: each event is then compared with the body and counted, not pushed,
// and a complete copy adds one to the loop's count. That is what pushing them would do:
//  - before the copy is complete nothing reduces: a fold would need its copies within the
//    partial copy (the loop on top equals no event), which deferrable() rules out, or an
//    equal loop before the one on top (startPending rules it out); an extension needs a
//    loop filed under the new position (pendingExtends: if one would extend, the events
//    are pushed after all); the window stays within kChainWindow (no run table is started
//    by a search, none records pushes) and within the window size (no eviction);
//  - when it is complete, the loop on top is the newest one filed under the top position
//    (loops pushed later have left) and it matches, and no fold shorter than the body
//    ends there (deferrable()), so reduceOnce extends it first: its count grows, and
//    popping the copy gives the state from before the pushes.
// An event that differs from the body pushes the deferred ones (replayPending) and then
// itself, as if nothing had been deferred.
[[gnu::always_inline]] inline void Nlr::pushSymbol(uint32_t symbol) {
  if (pending_.body) {
    const size_t i = pending_.matched;
    if (pending_.body[i] == eventKey(symbol)) {
      if (i + 1 == pending_.length) {
        completePending();
        return;
      }
      const Pos position = topPos() + 1 + static_cast<Pos>(i);
      if (extensionAt_[static_cast<size_t>(position) & extensionMask_] < firstPos() ||
          ((pending_.noExtension >> i) & 1) || !pendingExtends(position, i)) {
        pending_.matched = i + 1;
        return;
      }
    }
    replayPending();
  }
  pushNow(symbol);
  startPending();
}

// A push makes the window one longer and reductions shorten it: one eviction at most.
[[gnu::always_inline]] inline void Nlr::pushNow(uint32_t symbol) {
  const Pushed pushed = pushElement(eventKey(symbol), lastEvent_[symbol]);
  size_t size = static_cast<size_t>(pushed.position - pushed.first) + 1;
  if (mayReduceAfter(pushed, size)) {
    while (reduceOnce()) {
    }
    size = windowSize();
  }
  if (size > options_.window) evictOldest();
}

// The last event of the pending copy has come: the loop on top counts one more iteration,
// then the window reduces as after any push.
//
// Mostly nothing reduces then, and the next copy of the same body is pending at once. That
// is known without the search: the window is the one startPending saw (a pending copy
// pushes nothing), with only the top loop's count one higher.
//  - No fold: startPending found no loop of the top's body before it in the window, so the
//    top has no previous occurrence, and the window is within kChainWindow, where findFold
//    only follows that chain: it returns 0.
//  - No extension: findExtension starts from the newest loop filed under the top position;
//    if that is below the window, it returns -1 at once.
//  - No eviction: startPending kept the window and a body within the window size.
// Then startPending would pend the same body again (its conditions are those it checked, on
// the same window, with the count the only change): done here, the count checked as there.
// Otherwise (a loop filed under the top position, or the count near its limit), the full
// path below.
[[gnu::noinline]] void Nlr::completePending() {
  ElementKey& top = buf_[end_ - 1];
  ++top;  // the loop's count (below kMaxIterations: startPending)
  if (extensionAt_[static_cast<size_t>(topPos()) & extensionMask_] < firstPos() &&
      countOf(top) + 1 < kMaxIterations) [[likely]] {
    pending_.matched = 0;
    return;
  }
  pending_ = {};
  while (reduceOnce()) {
  }
  if (windowSize() > options_.window) evictOldest();
  startPending();
}

// findExtension, were the pending copy pushed up to `top` (a loop filed under `top` is in
// the window before it, the copy holds none): true if a loop would be extended there.
// `index`: the copy's event at `top`. A false answer is remembered in
// pending_.noExtension when it holds whatever the count of the loop on top (the only
// element completePending changes while the next copies pend): each loop met failed on
// elements other than the top one (the filing, its body, the copy's events), or matched
// the top one and failed after it (with another count it fails there). Only a mismatch on
// the top element itself against a loop of the same body could turn with the count.
[[gnu::noinline]] bool Nlr::pendingExtends(Pos top, size_t index) {
  const Pos realTop = topPos();
  auto element = [&](Pos q) {
    return q <= realTop ? at(q) : pending_.body[static_cast<size_t>(q - realTop - 1)];
  };
  bool countMatters = false;
  for (Pos p = extensionAt_[static_cast<size_t>(top) & extensionMask_]; p >= firstPos() && p < top;
       p = extNext_[static_cast<size_t>(p - offset_)]) {
    if (p > realTop) return true;  // not met (pops restore the chain): pushed, to be sure
    const ElementKey loop = at(p);
    if (!isLoop(loop) || countOf(loop) >= kMaxIterations) continue;
    const std::vector<ElementKey>& body = bodies_.body(bodyOf(loop));
    const auto k = static_cast<size_t>(top - p);
    if (body.size() != k || body.back() != element(top)) continue;
    size_t j = 0;
    while (j < k && body[j] == element(p + 1 + static_cast<Pos>(j))) ++j;
    if (j == k) return true;
    const ElementKey onTop = at(realTop);
    if (p + 1 + static_cast<Pos>(j) == realTop && isLoop(body[j]) &&
        bodyKeyOf(body[j]) == bodyKeyOf(onTop))
      countMatters = true;
  }
  if (!countMatters && index < 64) pending_.noExtension |= uint64_t{1} << index;
  return false;
}

// Pushes the events of the pending copy that have come, the way they would have been.
[[gnu::noinline]] void Nlr::replayPending() {
  const PendingCopy copy = pending_;
  pending_ = {};
  for (size_t i = 0; i < copy.matched; ++i) pushNow(symbolOf(copy.body[i]));
}

// After a push: a copy of the body of the loop now on top may be deferred from here on.
inline void Nlr::startPending() {
  if (end_ == head_) return;
  const ElementKey top = buf_[end_ - 1];
  if (!isLoop(top) || !options_.deferCopies || runs_ || countOf(top) + 1 >= kMaxIterations) return;
  // A fold whose copies hold this loop needs an equal loop before it in the window.
  if (previousSame(topPos()) >= firstPos()) return;
  const uint32_t body = bodyOf(top);
  // What deferrable() found for the body, or 0: known answers need no call.
  const uint8_t known = body < deferrableBody_.size() ? deferrableBody_[body] : 0;
  if (known == 2) return;
  const std::vector<ElementKey>& elements = bodies_.body(body);
  if (end_ - head_ + elements.size() > std::min(options_.window, kChainWindow)) return;
  if (known == 0 && !deferrable(body)) return;
  pending_ = {elements.data(), elements.size(), 0};
}

// A body whose copies may be deferred: events only, at most kMaxDeferredBody of them, and no
// prefix of it ends with minReps copies of a shorter sequence (once per body).
[[gnu::noinline]] bool Nlr::deferrable(uint32_t body) {
  constexpr size_t kMaxDeferredBody = 64;
  if (body >= deferrableBody_.size()) deferrableBody_.resize(bodies_.size(), 0);
  uint8_t& known = deferrableBody_[body];
  if (known != 0) return known == 1;
  const std::vector<ElementKey>& b = bodies_.body(body);
  bool ok = b.size() <= kMaxDeferredBody &&
            std::none_of(b.begin(), b.end(), [](ElementKey k) { return isLoop(k); });
  const size_t reps = options_.minReps;
  for (size_t end = 1; ok && end <= b.size(); ++end)  // the prefix b[0, end)
    for (size_t k = 1; ok && k * reps <= end; ++k) {
      const ElementKey* last = b.data() + end - k;
      bool copies = true;
      for (size_t c = 1; c < reps && copies; ++c) copies = std::equal(last, last + k, last - c * k);
      ok = !copies;
    }
  known = ok ? 1 : 2;
  return ok;
}

// The helpers of push() below are `inline`: they run once or more per event, and as
// calls their register saves and restores cost about as much as their work.
inline Nlr::Pos& Nlr::lastPositionOf(ElementKey key) {
  return isLoop(key) ? lastLoop_[bodyKeyOf(key)] : lastEvent_[symbolOf(key)];
}

// Restores the last position of `key` after its newest occurrence left (`restored`: a
// position in the window or -1); loop keys with no occurrence left in the window are
// erased so the index stays window-sized.
inline void Nlr::forgetLastPosition(ElementKey key, Pos restored) {
  if (isLoop(key)) {
    if (restored < 0)
      lastLoop_.erase(bodyKeyOf(key));
    else
      lastLoop_[bodyKeyOf(key)] = restored;
  } else {
    lastEvent_[symbolOf(key)] = restored;
  }
}

// Forced: GCC keeps it out of line otherwise (three callers), at ~20 instructions a call.
// `last` is lastPositionOf(key). Members are read into locals before the first store: a
// store of a position (int64) could alias them, and they would be read again after it.
[[gnu::always_inline]] inline Nlr::Pushed Nlr::pushElement(ElementKey key, Pos& last) {
  const size_t end = end_;
  const Pos position = offset_ + static_cast<Pos>(end);
  if (runs_) runs_->record(position, key);
  const Pos first = firstPos();
  ElementKey* const keys = buf_.get();
  Pos* const prev = prev_.get();
  Pos* const extNext = extNext_.get();
  const Pos previous = last >= first ? last : -1;
  prev[end] = previous;
  last = position;
  keys[end] = key;
  if (isLoop(key)) {
    Pos& slot = extensionAt_[extensionSlot(position, key)];
    extNext[end] = slot;
    slot = position;
  } else {
    extNext[end] = -1;
  }
  end_ = end + 1;
  return {position, previous, first};
}

// False if no reduction can apply after `pushed` (the window then holds `size` elements),
// decided from what the push left at hand (reduceOnce reads it all again). An extension
// needs a loop filed under this position: the newest one filed there is then in the
// window. A fold of period k needs an element equal to the top k back, so the previous
// occurrence is at most k back: if it is too far back for minReps copies, so is any k.
inline bool Nlr::mayReduceAfter(const Pushed& pushed, size_t size) const {
  if (extensionAt_[static_cast<size_t>(pushed.position) & extensionMask_] >= pushed.first)
    return true;
  return pushed.previous >= 0 &&
         static_cast<size_t>(pushed.position - pushed.previous) * options_.minReps <= size;
}

// Pops the `count` newest elements, newest first, restoring what their pushes changed.
// Window bounds are kept in locals: the stores to the position arrays (int64) could
// otherwise alias the members, which the compiler would then reload after each one.
inline void Nlr::popElements(size_t count) {
  const size_t stop = end_ - count;
  const ElementKey* keys = buf_.get();
  const Pos* prev = prev_.get();
  Pos* lastEvent = lastEvent_.data();
  for (size_t top = end_; top-- > stop;) {
    const ElementKey key = keys[top];
    if (isLoop(key)) [[unlikely]] {
      popLoop(top);
      continue;
    }
    // An event's key is its symbol. Its last position may be left below the window:
    // pushElement clamps it, and evictOldest never meets it.
    lastEvent[key] = prev[top];
  }
  end_ = stop;
}

// The part of popElements for the loop at index `top` of buf_ (out of line: the loop
// over the elements then needs no position of its own).
[[gnu::noinline]] void Nlr::popLoop(size_t top) {
  const ElementKey key = buf_[top];
  const Pos previous = prev_[top];
  forgetLastPosition(key, previous >= firstPos() ? previous : -1);
  const Pos position = offset_ + static_cast<Pos>(top);
  Pos& slot = extensionAt_[extensionSlot(position, key)];
  if (slot == position) slot = extNext_[top];
}

void Nlr::evictOldest() {
  const ElementKey key = buf_[head_];
  const Pos position = firstPos();
  emitted_.push_back(key);
  if (lastPositionOf(key) == position) forgetLastPosition(key, -1);
  ++head_;
  if (head_ >= options_.window) {  // compact: amortised O(1) per element
    std::copy(&buf_[head_], &buf_[end_], &buf_[0]);
    std::copy(&prev_[head_], &prev_[end_], &prev_[0]);
    std::copy(&extNext_[head_], &extNext_[end_], &extNext_[0]);
    offset_ += static_cast<Pos>(head_);
    end_ -= head_;
    head_ = 0;
  }
}

// The newest loop followed by exactly one copy of its body at the end of the window,
// or -1.
inline Nlr::Pos Nlr::findExtension(size_t& bodyLength) const {
  const Pos top = topPos();
  Pos p = extensionAt_[static_cast<size_t>(top) & extensionMask_];
  for (; p >= firstPos() && p < top; p = extNext_[static_cast<size_t>(p - offset_)]) {
    const ElementKey loop = at(p);
    if (!isLoop(loop) || countOf(loop) >= kMaxIterations) continue;
    const std::vector<ElementKey>& body = bodies_.body(bodyOf(loop));
    const auto k = static_cast<size_t>(top - p);
    if (body.size() != k || body.back() != at(top)) continue;
    if (std::equal(body.begin(), body.end(), &buf_[static_cast<size_t>(p + 1 - offset_)])) {
      bodyLength = k;
      return p;
    }
  }
  return -1;
}

// True if the window ends with minReps copies of its last k elements. Compares the
// newest elements first, inline: most candidates fail within a few elements.
inline bool Nlr::isRepetition(size_t k) const {
  const ElementKey* const last = &buf_[end_ - k];  // the last copy
  const size_t span = options_.minReps * k;        // all copies
  const ElementKey top = last[k - 1];
  for (size_t back = k; back < span; back += k)
    if ((last - back)[k - 1] != top) return false;
  for (size_t back = k; back < span; back += k) {
    const ElementKey* const other = last - back;
    for (size_t i = k - 1; i-- > 0;)
      if (other[i] != last[i]) return false;
  }
  return true;
}

// The smallest period k < limit (and k * minReps <= window size) whose minReps copies end
// the window, or 0. Every such k has an element equal to the top k back, so the chain of
// previous occurrences (for a loop: of its body, whatever the count) lists them in
// increasing order, among others that isRepetition rejects. In a large window (a noisy
// stream that does not fold) the chain is long and its first candidates match far, so
// the run table lists a superset instead, in the same order, checked the same way.
inline size_t Nlr::findFold(size_t limit) const {
  const size_t n = windowSize();
  if (runsEnabled_ && n > kChainWindow) {
    if (!runs_) startRunTable();
    return findFoldInTable(limit);
  }
  const Pos top = topPos();
  for (Pos p = previousSame(top); p >= firstPos(); p = previousSame(p)) {
    const auto k = static_cast<size_t>(top - p);
    if (k >= limit || k * options_.minReps > n) break;
    if (isRepetition(k)) return k;
  }
  return 0;
}

size_t Nlr::findFoldInTable(size_t limit) const {
  const size_t last = std::min(limit - 1, windowSize() / options_.minReps);
  runs_->update(topPos(), firstPos());
  for (size_t k = runs_->next(1, last); k != 0; k = runs_->next(k + 1, last))
    if (isRepetition(k)) return k;
  return 0;
}

[[gnu::always_inline]] inline bool Nlr::reduceOnce() {
  if (windowSize() < 2) return false;
  size_t extensionLength = 0;
  const Pos loop = findExtension(extensionLength);
  const size_t limit = loop >= 0 ? extensionLength : maxBody_ + 1;
  if (const size_t k = findFold(limit); k != 0) {
    fold(k);
    return true;
  }
  if (loop < 0) return false;
  extend(loop, extensionLength);
  return true;
}

// The copy is popped and the loop counts one more iteration where it is. Popping the loop
// and pushing its successor would give the same state: the position's entries (previous
// position of the body, extension slot at loop + body length) depend on the body only.
// Its previous position is not clamped again to the window: every reader checks it.
// Forced inline into the push loop: GCC may keep it out of line, with its pops.
[[gnu::always_inline]] inline void Nlr::extend(Pos loop, size_t k) {
  popElements(k);
  ElementKey& key = buf_[static_cast<size_t>(loop - offset_)];
  ++key;  // the count, below kMaxIterations (findExtension)
  if (runs_) runs_->record(loop, key);
}

void Nlr::fold(size_t k) {
  const uint32_t body = bodies_.intern(&buf_[end_ - k], k);
  popElements(k * options_.minReps);
  const ElementKey loop = loopKey(body, options_.minReps);
  pushElement(loop, lastLoop_[bodyKeyOf(loop)]);
}

LoopModel Nlr::model(std::vector<Signature> signatures) const {
  LoopModel m;
  m.signatures = std::move(signatures);
  m.bodies = bodies_.all();
  m.top = emitted_;
  m.top.insert(m.top.end(), &buf_[head_], &buf_[end_]);
  m.top.insert(m.top.end(), pending_.body, pending_.body + pending_.matched);
  m.eventsIn = pushed_;
  return m;
}

size_t Nlr::workingBytes() const {
  return (3 * capacity_ + extensionAt_.capacity()) * sizeof(uint64_t) +
         lastEvent_.capacity() * sizeof(Pos) + lastLoop_.bytes() + (runs_ ? runs_->bytes() : 0);
}

}  // namespace mtf::nlr
