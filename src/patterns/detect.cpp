#include "patterns/detect.hpp"

#include <algorithm>
#include <map>

namespace mtf::patterns {
namespace {

struct PatternBuilder {
  const CollapsedSequence& seq;
  std::map<std::vector<SymbolId>, ProcessPattern> byKey;

  ProcessPattern& patternFor(uint32_t start, uint32_t length) {
    std::vector<SymbolId> key(seq.symbols.begin() + start, seq.symbols.begin() + start + length);
    ProcessPattern& p = byKey[key];
    if (p.symbols.empty()) {
      p.symbols = std::move(key);
      p.firstTime = ~Tick{0};
    }
    return p;
  }

  // One copy at collapsed position q that is not a contiguous repeat.
  void addSingle(ProcessPattern& p, uint32_t q, uint32_t length) {
    uint64_t events = 0;
    for (uint32_t i = q; i < q + length; ++i) events += seq.slots[i].events;
    p.frequency += 1;
    p.eventsCovered += events;
    if (p.positions.size() < kMaxPositions) p.positions.push_back(seq.slots[q].firstEvent);
    p.firstTime = std::min(p.firstTime, seq.slots[q].firstTime);
    p.lastTime = std::max(p.lastTime, seq.slots[q + length - 1].lastTime);
    p.collapsedPositions.push_back(q);
  }

  void addTandem(ProcessPattern& p, const TandemRepeat& t) {
    p.frequency += t.copies;
    p.tandemCopies += t.copies;
    p.eventsCovered += t.events;
    for (uint64_t pos : t.copyStarts)
      if (p.positions.size() < kMaxPositions) p.positions.push_back(pos);
    p.firstTime = std::min(p.firstTime, seq.slots[t.start].firstTime);
    p.lastTime = std::max(p.lastTime, seq.slots[t.start + t.period - 1].lastTime);
    p.collapsedPositions.push_back(t.start);
  }
};

}  // namespace

std::vector<ProcessPattern> findProcessPatterns(const CollapsedSequence& seq,
                                                const DetectOptions& options) {
  PatternBuilder b{seq, {}};
  std::map<std::pair<uint32_t, uint32_t>, const TandemRepeat*> tandemAt;
  for (const TandemRepeat& t : seq.tandems) tandemAt[{t.start, t.period}] = &t;
  std::vector<bool> tandemUsed(seq.tandems.size(), false);

  RepeatLimits limits;
  limits.minLength = options.minLength;
  for (const MaximalRepeat& r : maximalRepeats(seq.symbols, limits)) {
    ProcessPattern& p = b.patternFor(r.positions.front(), r.length);
    for (uint32_t q : r.positions) {
      const auto it = tandemAt.find({q, r.length});
      if (it == tandemAt.end()) {
        b.addSingle(p, q, r.length);
        continue;
      }
      b.addTandem(p, *it->second);
      tandemUsed[static_cast<size_t>(it->second - seq.tandems.data())] = true;
    }
  }
  // Loops whose body occurs once in the collapsed sequence are patterns too.
  for (size_t i = 0; i < seq.tandems.size(); ++i) {
    const TandemRepeat& t = seq.tandems[i];
    // A loop with a single communication in its body is a pattern too (a leaf of a
    // reduction tree sends once per iteration): the paper's bi-gram minimum is kept for
    // non-contiguous repeats only.
    if (tandemUsed[i] || t.copies < 2) continue;
    b.addTandem(b.patternFor(t.start, t.period), t);
  }

  std::vector<ProcessPattern> out;
  out.reserve(b.byKey.size());
  for (auto& [key, p] : b.byKey) {
    std::sort(p.positions.begin(), p.positions.end());
    std::sort(p.collapsedPositions.begin(), p.collapsedPositions.end());
    out.push_back(std::move(p));
  }
  std::stable_sort(out.begin(), out.end(), [](const ProcessPattern& a, const ProcessPattern& c) {
    if (a.eventsCovered != c.eventsCovered) return a.eventsCovered > c.eventsCovered;
    return a.frequency > c.frequency;
  });
  if (out.size() > options.maxPatternsPerLocation) out.resize(options.maxPatternsPerLocation);
  return out;
}

void PatternDetector::begin(const Definitions& defs) {
  extractor_ = std::make_unique<SymbolExtractor>(defs, options_.symbols);
  worldSize_ = extractor_->ranks().worldSize();
  resolution_ = defs.clock.resolution;
}

PatternDetector::LocationState& PatternDetector::stateOf(LocationId id) {
  if (last_ && last_->info.location == id) return *last_;
  auto& slot = states_[id];
  if (!slot) {
    slot = std::make_unique<LocationState>(options_.maxPeriod);
    slot->info.location = id;
    slot->info.rank = extractor_->ranks().worldRank(id);
    order_.push_back(id);
  }
  last_ = slot.get();
  return *slot;
}

void PatternDetector::event(const Event& e) {
  LocationState& st = stateOf(e.location);
  const uint64_t index = st.info.events++;
  if (index == 0) st.info.firstTime = e.time;
  st.info.lastTime = e.time;
  const std::optional<CommSymbol> s = extractor_->symbolOf(e);
  if (!s) return;
  ++st.info.commEvents;
  st.sorter.push(symbols_.intern(*s), s->partner, e.kind == EventKind::MpiIrecv, index, e.time, 0);
}

void PatternDetector::end() {
  results_.clear();
  std::sort(order_.begin(), order_.end(), [&](LocationId a, LocationId b) {
    const int64_t ra = states_[a]->info.rank, rb = states_[b]->info.rank;
    return ra != rb ? (ra < 0 ? false : rb < 0 ? true : ra < rb) : a < b;
  });
  for (LocationId id : order_) {
    LocationState& st = *states_[id];
    st.sorter.flush();
    CollapsedSequence seq = st.collapser.finish();
    st.info.collapsedLength = seq.symbols.size();
    st.info.patterns = findProcessPatterns(seq, options_);
    results_.push_back(std::move(st.info));
    states_[id].reset();  // the collapsed sequence is not needed any more
  }
  states_.clear();
  last_ = nullptr;
}

}  // namespace mtf::patterns
