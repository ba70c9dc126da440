#include "patterns/collapse.hpp"

#include <algorithm>

namespace mtf::patterns {
namespace {

void appendCapped(std::vector<uint64_t>& to, const std::vector<uint64_t>& from) {
  for (uint64_t v : from) {
    if (to.size() >= kMaxPositions) return;
    to.push_back(v);
  }
}
void appendCapped(std::vector<Tick>& to, const std::vector<Tick>& from, int) {
  for (Tick v : from) {
    if (to.size() >= kMaxPositions) return;
    to.push_back(v);
  }
}

}  // namespace

void TandemCollapser::push(SymbolId symbol, uint64_t eventIndex, Tick time, uint64_t ordinal) {
  ++pushed_;
  symbols_.push_back(symbol);
  slots_.push_back(Slot{eventIndex, eventIndex, time, time, 1, ordinal});
  while (tryCollapse()) {
  }
}

bool TandemCollapser::endsWithRepeat(size_t period) const {
  const size_t n = symbols_.size();
  // Cheap rejection on the last symbol first: most periods fail here.
  if (symbols_[n - 1] != symbols_[n - 1 - period]) return false;
  return std::equal(symbols_.end() - static_cast<ptrdiff_t>(2 * period),
                    symbols_.end() - static_cast<ptrdiff_t>(period),
                    symbols_.end() - static_cast<ptrdiff_t>(period));
}

bool TandemCollapser::tryCollapse() {
  const size_t n = symbols_.size();
  const size_t limit = std::min<size_t>(maxPeriod_, n / 2);
  for (size_t p = 1; p <= limit; ++p) {
    if (endsWithRepeat(p)) {
      dropLastCopy(p);
      return true;
    }
  }
  return false;
}

void TandemCollapser::dropLastCopy(size_t period) {
  const size_t n = symbols_.size();
  const auto first = static_cast<uint32_t>(n - 2 * period);
  const auto dropStart = static_cast<uint32_t>(n - period);
  uint64_t droppedEvents = 0;
  for (size_t i = dropStart; i < n; ++i) droppedEvents += slots_[i].events;

  const auto key = std::make_pair(first, static_cast<uint32_t>(period));
  auto [it, inserted] = tandems_.try_emplace(key);
  TandemRepeat& rep = it->second;
  if (inserted || rep.copies == 0) {
    uint64_t keptEvents = 0;
    for (size_t i = first; i < dropStart; ++i) keptEvents += slots_[i].events;
    rep.start = first;
    rep.period = static_cast<uint32_t>(period);
    rep.copies = 1;
    rep.runs = 1;
    rep.events = keptEvents;
    rep.copyStarts.push_back(slots_[first].firstEvent);
    rep.copyTimes.push_back(slots_[first].firstTime);
  }
  ++rep.copies;
  rep.events += droppedEvents;
  if (rep.copyStarts.size() < kMaxPositions) {
    rep.copyStarts.push_back(slots_[dropStart].firstEvent);
    rep.copyTimes.push_back(slots_[dropStart].firstTime);
  }
  // The kept block's last slot now reaches to the end of the dropped copy.
  Slot& last = slots_[dropStart - 1];
  last.lastEvent = slots_[n - 1].lastEvent;
  last.lastTime = slots_[n - 1].lastTime;
  last.events += droppedEvents;
  mergeRepeatsOfDroppedCopy(dropStart, period);
  symbols_.resize(dropStart);
  slots_.resize(dropStart);
}

// Repeats found inside the dropped copy are repeats of the same inner block of the kept
// copy, `period` symbols earlier: their counts and positions move there.
void TandemCollapser::mergeRepeatsOfDroppedCopy(uint32_t dropStart, size_t period) {
  auto it = tandems_.lower_bound({dropStart, 0});
  while (it != tandems_.end()) {
    TandemRepeat moved = std::move(it->second);
    it = tandems_.erase(it);
    const uint32_t newStart = moved.start - static_cast<uint32_t>(period);
    TandemRepeat& into = tandems_[{newStart, moved.period}];
    if (into.copies == 0) {
      into = std::move(moved);
      into.start = newStart;
      continue;
    }
    into.copies += moved.copies;
    into.runs += moved.runs;
    into.events += moved.events;
    appendCapped(into.copyStarts, moved.copyStarts);
    appendCapped(into.copyTimes, moved.copyTimes, 0);
  }
}

void CompletionSorter::push(SymbolId symbol, int64_t partner, bool unordered, uint64_t eventIndex,
                            Tick time, uint64_t ordinal) {
  if (!unordered) {
    flush();
    collapser_.push(symbol, eventIndex, time, ordinal);
    return;
  }
  pending_.push_back({symbol, partner, ordinal, eventIndex, time});
}

void CompletionSorter::flush() {
  if (pending_.empty()) return;
  std::vector<Pending> sorted = pending_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Pending& a, const Pending& b) { return a.partner < b.partner; });
  for (size_t i = 0; i < sorted.size(); ++i)
    collapser_.push(sorted[i].symbol, pending_[i].eventIndex, pending_[i].time, sorted[i].ordinal);
  pending_.clear();
}

CollapsedSequence TandemCollapser::finish() {
  CollapsedSequence out;
  out.inputSymbols = pushed_;
  out.symbols = std::move(symbols_);
  out.slots = std::move(slots_);
  for (auto& [key, rep] : tandems_) out.tandems.push_back(std::move(rep));
  tandems_.clear();
  symbols_.clear();
  slots_.clear();
  pushed_ = 0;
  return out;
}

}  // namespace mtf::patterns
