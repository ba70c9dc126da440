#include "filter/selection_sink.hpp"

#include "filter/id_list.hpp"

namespace mtf::filter {
namespace {

constexpr uint8_t kMatched = 1, kExcluded = 2;  // a region's class
constexpr uint64_t kNoRoot = 0xFFFFFFFFu;       // OTF2_UNDEFINED_UINT32

}  // namespace

SelectionSink::SelectionSink(TraceSink& out, Selection selection)
    : out_(out), selection_(std::move(selection)) {}

void SelectionSink::begin(const Definitions& defs) {
  threadMessages_ = ThreadMessageAttributes(defs);
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Region) continue;
    const Ref ref = static_cast<Ref>(r.fields[0]);
    const std::string_view name = defs.regionName(ref);
    uint8_t c = 0;
    if (selection_.regions.empty() || matchesAny(selection_.regions, name)) c |= kMatched;
    if (matchesAny(selection_.excludeRegions, name)) c |= kExcluded;
    regionClass_[ref] = c;
  }
  if (selection_.locations) {
    pruned_.emplace(defs, *selection_.locations);
    out_.begin(pruned_->definitions());
  } else {
    ranks_ = std::make_unique<RankMap>(defs);
    out_.begin(defs);
  }
}

uint8_t SelectionSink::classOf(Ref region) const {
  const auto it = regionClass_.find(region);
  if (it != regionClass_.end()) return it->second;
  return selection_.regions.empty() ? kMatched : 0;  // an undefined region has no name
}

bool SelectionSink::insideKeptCall(const CallState& s) const {
  return (selection_.regions.empty() || s.matchedOpen > 0) && s.excludedOpen == 0;
}

// Decided at the Enter and remembered for its Leave, so calls stay balanced.
bool SelectionSink::keepsCall(const Event& e) {
  CallState& s = calls_[e.location];
  if (e.kind == EventKind::Leave && !s.stack.empty()) {
    const OpenCall call = s.stack.back();
    s.stack.pop_back();
    s.matchedOpen -= call.matched, s.excludedOpen -= call.excluded;
    leftRegion_ = call.region;
    return call.kept;
  }
  const uint8_t c = classOf(static_cast<Ref>(e.fields[0]));
  OpenCall call{false, (c & kMatched) != 0, (c & kExcluded) != 0, e.fields[0]};
  leftRegion_ = e.fields[0];
  call.kept = call.matched && !call.excluded;
  if (selection_.regionContents)
    call.kept = !call.excluded && s.excludedOpen == 0 && (call.matched || s.matchedOpen > 0);
  if (e.kind == EventKind::Enter) {  // a Leave without its Enter is decided alone
    s.stack.push_back(call);
    s.matchedOpen += call.matched, s.excludedOpen += call.excluded;
  }
  return call.kept;
}

// The k-th send of a channel matches its k-th receive: a kept half whose other half the
// filters dropped is counted.
void SelectionSink::match(const Event& e, LocationId partner, bool keep) {
  const bool send = isSend(e.kind);
  Pending& p = channels_[{send ? e.location : partner, send ? partner : e.location, e.fields[1],
                          e.fields[2]}];
  std::deque<bool>& other = send ? p.recvs : p.sends;
  if (other.empty()) {
    (send ? p.sends : p.recvs).push_back(keep);
    return;
  }
  if (other.front() != keep) ++partnerFiltered_;
  other.pop_front();
}

// False if the message event is not written; else `out` is what to write.
bool SelectionSink::handleMessage(const Event& e, bool keep, Event& out) {
  const Ref comm = static_cast<Ref>(e.fields[1]);
  const RankMap& ranks = pruned_ ? pruned_->oldRanks() : *ranks_;
  LocationId partner = kUndefinedId;
  if (!threadMessages_.peerOf(e, partner))
    partner = ranks.locationOf(comm, e.fields[0], e.location);
  if (selection_.locations && !selection_.locations->count(partner)) {
    partnerNotSelected_ += keep;
    return false;
  }
  if (selection_.filtersEvents()) match(e, partner, keep);
  if (!keep) return false;
  out = e;
  if (!pruned_) return true;
  const int64_t rank = pruned_->newRank(comm, e.fields[0], e.location);
  if (rank < 0) {
    ++partnerNotSelected_;
    return false;
  }
  out.fields[0] = static_cast<uint64_t>(rank);
  return true;
}

// A collective's root is a rank of its communicator: renumbered, or undefined if dropped.
void SelectionSink::renumberRoot(const Event& e, Event& out) {
  out = e;
  if (!pruned_ || e.fields[2] == kNoRoot) return;
  const int64_t rank = pruned_->newRank(static_cast<Ref>(e.fields[1]), e.fields[2], e.location);
  if (rank < 0) ++rootNotSelected_;
  out.fields[2] = rank < 0 ? kNoRoot : static_cast<uint64_t>(rank);
}

void SelectionSink::event(const Event& e) {
  ++seen_;
  if (selection_.locations && !selection_.locations->count(e.location)) return;
  bool keep = true;
  const bool filtersRegions = !selection_.regions.empty() || !selection_.excludeRegions.empty();
  const bool call = e.kind == EventKind::Enter || e.kind == EventKind::Leave;
  if (filtersRegions && call)
    keep = keepsCall(e);
  else if (filtersRegions && selection_.regionContents)
    keep = insideKeptCall(calls_[e.location]);
  keep = keep && selection_.kinds[static_cast<size_t>(e.kind)];
  const Event* written = &e;
  if (isMpiPointToPoint(e.kind)) {
    if (!handleMessage(e, keep, scratch_)) return;
    written = &scratch_;
  } else if (!keep) {
    return;
  } else if (filtersRegions && call && e.fields[0] != leftRegion_) {
    // A Leave of another region than the open call's (an unbalanced input) closes that
    // call, which alone decided to keep it: it is written as that call's Leave, so that
    // the kept calls nest in every format (Paraver pairs a call's end with its type).
    scratch_ = e;
    scratch_.fields[0] = leftRegion_;
    written = &scratch_;
  } else if (e.kind == EventKind::MpiCollectiveEnd ||
             e.kind == EventKind::NonBlockingCollectiveComplete) {
    renumberRoot(e, scratch_);
    written = &scratch_;
  }
  out_.event(*written);
  ++kept_;
}

LossReport SelectionSink::losses() const {
  LossReport l;
  if (partnerNotSelected_)
    l["message events whose partner is not among the selected locations"] += partnerNotSelected_;
  if (partnerFiltered_)
    l["message events kept whose partner event the filters dropped"] += partnerFiltered_;
  if (rootNotSelected_)
    l["collective operations whose root is not among the selected locations (root left "
      "undefined)"] += rootNotSelected_;
  return l;
}

}  // namespace mtf::filter
