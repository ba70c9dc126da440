#include "program/flows.hpp"

namespace mtf::program {

int64_t rankKey(const std::vector<Process>& processes, uint32_t process) {
  const int64_t rank = processes.at(process).worldRank;
  return rank >= 0 ? rank : -2 - static_cast<int64_t>(process);
}

bool sideOf(const nlr::Signature& s, int64_t ownRank, Side& side) {
  side = Side{};
  if (isCollectiveKind(s.kind)) {
    side.channel.collective = true;
    side.channel.comm = s.comm;
    side.role = ownRank;
    return true;
  }
  if (!isMpiPointToPoint(s.kind)) return false;
  const int64_t peer = s.partnerRelative ? ownRank + s.partner : s.partner;
  const bool send = isSend(s.kind);
  side.channel.sender = send ? ownRank : peer;
  side.channel.receiver = send ? peer : ownRank;
  side.channel.tag = s.tag;
  side.channel.comm = s.comm;
  side.role = send ? 0 : 1;
  return true;
}

namespace {

void addScaled(Flow& into, const Flow& from, uint64_t factor) {
  for (const auto& [side, n] : from) {
    uint64_t& slot = into[side];
    slot = slot + times(n, factor) < slot ? UINT64_MAX : slot + times(n, factor);
  }
}

}  // namespace

Flow flowOf(const Construct& c, const std::vector<Process>& processes) {
  Flow flow;
  if (c.isLoop()) {
    addScaled(flow, flowOf(c.body, processes), c.count);
    return flow;
  }
  Side side;
  for (uint32_t p : c.procs)
    if (sideOf(c.signature, rankKey(processes, p), side)) ++flow[side];
  return flow;
}

Flow flowOf(const System& system, const std::vector<Process>& processes) {
  Flow flow;
  for (const Construct& c : system) addScaled(flow, flowOf(c, processes), 1);
  return flow;
}

}  // namespace mtf::program
