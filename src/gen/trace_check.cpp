#include "gen/trace_check.hpp"

#include <sstream>

#include "gen/random.hpp"

namespace mtf::gen {

std::string CheckReport::summary() const {
  std::ostringstream s;
  s << "events=" << events << " messages=" << messages << " unmatchedSends=" << unmatchedSends
    << " unmatchedReceives=" << unmatchedReceives << " sizeMismatches=" << sizeMismatches
    << " receivesBeforeSend=" << receivesBeforeSend << " outOfOrder=" << outOfOrder
    << " badNesting=" << badNesting << " requestErrors=" << requestErrors
    << " requestsNotIncreasing=" << requestsNotIncreasing
    << " collectivesAgree=" << collectivesAgree;
  return s.str();
}

void TraceCheckSink::begin(const Definitions& defs) {
  defs_ = &defs;
  ranks_ = std::make_unique<RankMap>(defs);
  report_ = {};
  report_.eventsPerRank.assign(ranks_->worldSize(), 0);
}

uint64_t TraceCheckSink::worldRank(const Event& e, uint64_t rankInComm, uint64_t comm) const {
  return static_cast<uint64_t>(ranks_->worldRankOf(static_cast<Ref>(comm), rankInComm, e.location));
}

void TraceCheckSink::event(const Event& e) {
  ++report_.events;
  ++report_.eventsPerKind[e.kind];
  LocationState& s = locations_[e.location];
  if (s.any && e.time < s.last) ++report_.outOfOrder;
  s.any = true;
  s.last = e.time;
  const int64_t self = ranks_->worldRank(e.location);
  if (self >= 0 && static_cast<size_t>(self) < report_.eventsPerRank.size())
    ++report_.eventsPerRank[static_cast<size_t>(self)];
  switch (e.kind) {
    case EventKind::Enter:
      s.regions.push_back(e.fields[0]);
      break;
    case EventKind::Leave:
      if (s.regions.empty() || s.regions.back() != e.fields[0])
        ++report_.badNesting;
      else
        s.regions.pop_back();
      break;
    case EventKind::MpiCollectiveEnd:
      onCollective(s, e);
      break;
    default:
      break;
  }
  onRequest(s, e);
  if (isSend(e.kind)) onSend(static_cast<uint64_t>(self), e, e.fields[0]);
  if (isRecv(e.kind)) onReceive(static_cast<uint64_t>(self), e, e.fields[0]);
}

void TraceCheckSink::onRequest(LocationState& s, const Event& e) {
  const auto post = [&](uint64_t request) {
    if (request <= s.lastRequest) ++report_.requestsNotIncreasing;
    s.lastRequest = request;
    if (!s.openRequests.emplace(request, static_cast<uint64_t>(e.kind)).second)
      ++report_.requestErrors;
  };
  const auto complete = [&](uint64_t request, EventKind postedAs) {
    const auto it = s.openRequests.find(request);
    if (it == s.openRequests.end() || it->second != static_cast<uint64_t>(postedAs)) {
      ++report_.requestErrors;
      return;
    }
    s.openRequests.erase(it);
  };
  switch (e.kind) {
    case EventKind::MpiIsend:
      post(e.fields[4]);
      break;
    case EventKind::MpiIrecvRequest:
      post(e.fields[0]);
      break;
    case EventKind::MpiIsendComplete:
      complete(e.fields[0], EventKind::MpiIsend);
      break;
    case EventKind::MpiIrecv:
      complete(e.fields[4], EventKind::MpiIrecvRequest);
      break;
    default:
      break;
  }
}

void TraceCheckSink::onCollective(LocationState& s, const Event& e) {
  // op, comm and root must agree across ranks; sent/received differ by role.
  s.collectiveDigest = hashOf(s.collectiveDigest, e.fields[0], e.fields[1], e.fields[2]);
  ++s.collectives;
}

void TraceCheckSink::onSend(uint64_t from, const Event& e, uint64_t receiverRank) {
  const uint64_t comm = e.fields[1];
  const uint64_t to = worldRank(e, receiverRank, comm);
  ChannelQueues& q = channels_[{from, to, comm, e.fields[2]}];
  const Message sent{e.fields[3], e.time};
  if (q.receives.empty()) {
    q.sends.push_back(sent);
    return;
  }
  const Message received = q.receives.front();
  q.receives.pop_front();
  ++report_.messages;
  ++report_.messagesPerPair[{from, to}];
  if (received.length != sent.length) ++report_.sizeMismatches;
  if (received.time < sent.time) ++report_.receivesBeforeSend;
}

void TraceCheckSink::onReceive(uint64_t to, const Event& e, uint64_t senderRank) {
  const uint64_t comm = e.fields[1];
  const uint64_t from = worldRank(e, senderRank, comm);
  if (to == 0) report_.rankZeroReceiveSources.push_back(from);
  ChannelQueues& q = channels_[{from, to, comm, e.fields[2]}];
  const Message received{e.fields[3], e.time};
  if (q.sends.empty()) {
    q.receives.push_back(received);
    return;
  }
  const Message sent = q.sends.front();
  q.sends.pop_front();
  ++report_.messages;
  ++report_.messagesPerPair[{from, to}];
  if (received.length != sent.length) ++report_.sizeMismatches;
  if (received.time < sent.time) ++report_.receivesBeforeSend;
}

void TraceCheckSink::end() {
  for (const auto& [channel, q] : channels_) {
    report_.unmatchedSends += q.sends.size();
    report_.unmatchedReceives += q.receives.size();
  }
  const LocationState* first = nullptr;
  for (const auto& [location, s] : locations_) {
    if (!s.regions.empty()) ++report_.badNesting;
    report_.requestErrors += s.openRequests.size();
    if (!first) first = &s;
    if (s.collectiveDigest != first->collectiveDigest || s.collectives != first->collectives)
      report_.collectivesAgree = false;
  }
}

}  // namespace mtf::gen
