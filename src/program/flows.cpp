#include "program/flows.hpp"

#include <algorithm>

namespace mtf::program {

int64_t rankKey(const std::vector<Process>& processes, uint32_t process) {
  const int64_t rank = processes.at(process).worldRank;
  return rank >= 0 ? rank : -2 - static_cast<int64_t>(process);
}

bool sideOf(const nlr::Signature& s, const RankForm& form, int64_t ownRank, Side& side) {
  side = Side{};
  if (isCollectiveKind(s.kind)) {
    side.channel.collective = true;
    side.channel.comm = s.comm;
    side.role = ownRank;
    return true;
  }
  if (!isMpiPointToPoint(s.kind)) return false;
  // A stand-in own rank (no world rank) only ever has absolute partners.
  const int64_t peer = form.kind == RankForm::Kind::Offset
                           ? (s.partnerRelative ? ownRank + s.partner : s.partner)
                           : partnerRank(s, form, ownRank);
  const bool send = isSend(s.kind);
  side.channel.sender = send ? ownRank : peer;
  side.channel.receiver = send ? peer : ownRank;
  side.channel.tag = s.tag;
  side.channel.comm = s.comm;
  side.role = send ? 0 : 1;
  return true;
}

namespace {

// Appends the sides of `c` (scaled by the counts of the loops around it), unsorted.
void appendSides(const Construct& c, uint64_t factor, const std::vector<Process>& processes,
                 Flow& out) {
  if (c.isLoop()) {
    for (const Construct& b : c.body) appendSides(b, times(factor, c.count), processes, out);
    return;
  }
  Side side;
  for (uint32_t p : c.procs)
    if (sideOf(c.signature, c.form, rankKey(processes, p), side)) out.emplace_back(side, factor);
}

// Sorted by side, the counts of each side summed.
Flow normalized(Flow flow) {
  std::sort(flow.begin(), flow.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Flow out;
  for (const auto& [side, n] : flow) {
    if (!out.empty() && out.back().first == side)
      out.back().second = out.back().second + n < n ? UINT64_MAX : out.back().second + n;
    else
      out.emplace_back(side, n);
  }
  return out;
}

}  // namespace

Flow flowOf(const Construct& c, const std::vector<Process>& processes) {
  Flow flow;
  appendSides(c, 1, processes, flow);
  return normalized(std::move(flow));
}

Flow flowOf(const System& system, const std::vector<Process>& processes) {
  Flow flow;
  for (const Construct& c : system) appendSides(c, 1, processes, flow);
  return normalized(std::move(flow));
}

}  // namespace mtf::program
