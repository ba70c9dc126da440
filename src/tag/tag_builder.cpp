#include "tag/tag_builder.hpp"

#include <algorithm>
#include <string>

namespace mtf::tag {
namespace {

// MPI events that make an activity of their own when no MPI call is open.
bool standsAlone(EventKind k) {
  switch (k) {
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
    case EventKind::MpiIrecvRequest:
    case EventKind::MpiIsendComplete:
    case EventKind::MpiCollectiveEnd:
    case EventKind::NonBlockingCollectiveRequest:
    case EventKind::NonBlockingCollectiveComplete:
      return true;
    default:
      return false;
  }
}

bool isMpiEvent(EventKind k) {
  return standsAlone(k) || k == EventKind::MpiCollectiveBegin || k == EventKind::MpiRequestTest ||
         k == EventKind::MpiRequestCancelled;
}

}  // namespace

struct TagBuilder::LocationState {
  struct Frame {
    Ref region;
    PathId path;
    NodeId node;  // kNoNode: not an MPI call
    Tick start;
  };
  struct Request {
    NodeId node;
    Tick time;
  };
  LocationId location = 0;
  int64_t worldRank = -1;
  std::vector<Frame> stack;
  std::vector<NodeId> nodeOfPath;  // path -> this location's node
  NodeId lastNode = kNoNode;       // the activity that started last
  NodeId endedCall = kNoNode;      // the MPI call that ended last, if no activity started since
  Tick endedCallTime = 0;          // and when
  Tick lastEnd = 0;                // the latest end of an activity so far
  uint32_t openCalls = 0;
  Tick lastTime = 0;
  std::unordered_map<uint64_t, Request> requests;
  std::unique_ptr<LoopCursor> loops;  // null: no loop nest (or it stopped matching)

  PathId currentPath() const { return stack.empty() ? CallPaths::kRoot : stack.back().path; }
  NodeId innermostCall() const {
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
      if (it->node != kNoNode) return it->node;
    return kNoNode;
  }
};

TagBuilder::TagBuilder(ActivityObserver* observer) : observer_(observer) {}
TagBuilder::~TagBuilder() = default;

void TagBuilder::begin(const Definitions& defs) {
  defs_ = defs;
  graph_.resolution = defs.clock.resolution;
  ranks_ = std::make_unique<RankMap>(defs_);
  messages_ = std::make_unique<MessageMatcher>(graph_);
  collectives_ = std::make_unique<CollectiveMatcher>(*ranks_);
  for (const DefRecord& r : defs_.records()) {
    const uint64_t id = r.fields.empty() ? kUndefinedId : r.fields[0];
    if (r.kind != DefKind::Region || id >= (uint64_t{1} << 24)) continue;  // ids are dense
    if (id >= regionLabel_.size()) {
      regionLabel_.resize(id + 1, 0);
      mpiRegion_.resize(id + 1, false);
    }
    const RegionView region = defs_.region(id);
    regionLabel_[id] = graph_.paths.label(region.name);
    mpiRegion_[id] = region.paradigm == Paradigm::Mpi;
  }
  for (size_t k = 0; k < kEventKindCount; ++k)
    kindLabel_.push_back(graph_.paths.label(nameOf(static_cast<EventKind>(k))));
  startPath_ = graph_.paths.child(CallPaths::kRoot, graph_.paths.label("START"));
  endPath_ = graph_.paths.child(CallPaths::kRoot, graph_.paths.label("END"));
}

TagBuilder::LocationState& TagBuilder::stateOf(LocationId location) {
  if (last_ && last_->location == location) [[likely]]
    return *last_;
  const auto it = states_.find(location);
  last_ = it != states_.end() ? it->second.get() : &createState(location);
  return *last_;
}

TagBuilder::LocationState& TagBuilder::createState(LocationId location) {
  auto state = std::make_unique<LocationState>();
  state->location = location;
  state->worldRank = ranks_ ? ranks_->worldRank(location) : -1;
  if (const auto it = loops_.find(location); it != loops_.end())
    state->loops = std::make_unique<LoopCursor>(it->second);
  LocationState& s = *state;
  states_.emplace(location, std::move(state));
  order_.push_back(&s);
  return s;
}

void TagBuilder::event(const Event& e) {
  LocationState& s = stateOf(e.location);
  if (s.lastNode == kNoNode) {  // the location's first event: its START marker
    const NodeId start = nodeOf(s, startPath_, NodeKind::Marker);
    graph_.nodes[start].profile.add(0);
    s.lastNode = start;
    s.lastEnd = e.time;
    if (observer_) observer_->activity(s.location, s.worldRank, startPath_, e.time);
  }
  s.lastTime = std::max(s.lastTime, e.time);
  if (s.loops) loopMarkers(s, e.time, false);
  if (e.kind == EventKind::Enter)
    enter(s, e.fields[0], e.time);
  else if (e.kind == EventKind::Leave)
    leave(s, e.fields[0], e.time);
  else if (isMpiEvent(e.kind))
    mpiEvent(s, e);
}

void TagBuilder::enter(LocationState& s, Ref region, Tick time) {
  if (region >= regionLabel_.size()) {  // a region without a definition: named by its id
    regionLabel_.resize(region + 1, 0);
    mpiRegion_.resize(region + 1, false);
  }
  if (regionLabel_[region] == 0)
    regionLabel_[region] = graph_.paths.label("region" + std::to_string(region));
  const PathId path = graph_.paths.child(s.currentPath(), regionLabel_[region]);
  NodeId node = kNoNode;
  if (mpiRegion_[region]) {
    node = startActivity(s, path, NodeKind::Communication, time);
    ++s.openCalls;
  }
  s.stack.push_back({region, path, node, time});
}

void TagBuilder::leave(LocationState& s, Ref region, Tick time) {
  auto it = std::find_if(s.stack.rbegin(), s.stack.rend(),
                         [region](const LocationState::Frame& f) { return f.region == region; });
  if (it == s.stack.rend()) return;  // not open: ignored
  const size_t depth = s.stack.rend() - it - 1;
  while (s.stack.size() > depth) popFrame(s, time);
}

void TagBuilder::popFrame(LocationState& s, Tick time) {
  const LocationState::Frame frame = s.stack.back();
  s.stack.pop_back();
  if (frame.node == kNoNode) return;
  endActivity(s, frame.node, frame.start, time);
  --s.openCalls;
  s.endedCall = frame.node;
  s.endedCallTime = time;
}

NodeId TagBuilder::nodeOf(LocationState& s, PathId path, NodeKind kind) {
  if (path >= s.nodeOfPath.size()) s.nodeOfPath.resize(graph_.paths.size(), kNoNode);
  NodeId& node = s.nodeOfPath[path];
  if (node == kNoNode) {
    node = static_cast<NodeId>(graph_.nodes.size());
    graph_.nodes.push_back({s.location, s.worldRank, path, kind, {}});
  }
  return node;
}

NodeId TagBuilder::startActivity(LocationState& s, PathId path, NodeKind kind, Tick time) {
  const NodeId node = nodeOf(s, path, kind);
  const Tick computation = s.openCalls > 0 || time < s.lastEnd ? 0 : time - s.lastEnd;
  processEdges_.get(s.lastNode, node).profile.add(computation);
  s.lastNode = node;
  s.endedCall = kNoNode;
  if (observer_) observer_->activity(s.location, s.worldRank, path, time);
  return node;
}

void TagBuilder::endActivity(LocationState& s, NodeId node, Tick start, Tick end) {
  graph_.nodes[node].profile.add(end >= start ? end - start : 0);
  s.lastEnd = std::max(s.lastEnd, end);
}

void TagBuilder::mpiEvent(LocationState& s, const Event& e) {
  NodeId node = s.innermostCall();
  // Extrae gives a blocking send when the message left, after its call's Leave at the
  // same time (Paraver's communication record follows the call's last event line): the
  // send is that call's, as signature.cpp reads it too.
  if (node == kNoNode && isSend(e.kind) && s.endedCall != kNoNode && s.endedCallTime == e.time)
    node = s.endedCall;
  if (node == kNoNode) {
    if (!standsAlone(e.kind)) {
      if (e.kind == EventKind::MpiRequestCancelled) s.requests.erase(e.fields[0]);
      return;
    }
    const PathId path =
        graph_.paths.child(s.currentPath(), kindLabel_[static_cast<size_t>(e.kind)]);
    node = startActivity(s, path, NodeKind::Communication, e.time);
    endActivity(s, node, e.time, e.time);
  }
  switch (e.kind) {
    case EventKind::MpiSend:
    case EventKind::MpiRecv:
      pointToPoint(s, e, node);
      break;
    case EventKind::MpiIsend:
      pointToPoint(s, e, node);
      requestStarted(s, e.fields[4], node, e.time);
      break;
    case EventKind::MpiIrecv:
      pointToPoint(s, e, node);
      requestCompleted(s, e.fields[4], node, e.time);
      break;
    case EventKind::MpiIrecvRequest:
    case EventKind::NonBlockingCollectiveRequest:
      requestStarted(s, e.fields[0], node, e.time);
      break;
    case EventKind::MpiIsendComplete:
      requestCompleted(s, e.fields[0], node, e.time);
      break;
    case EventKind::MpiRequestCancelled:
      s.requests.erase(e.fields[0]);
      break;
    case EventKind::MpiCollectiveEnd:
      collectives_->collective(e.fields[1], s.location, node, static_cast<uint8_t>(e.fields[0]),
                               e.fields[2]);
      break;
    case EventKind::NonBlockingCollectiveComplete:
      collectives_->collective(e.fields[1], s.location, node, static_cast<uint8_t>(e.fields[0]),
                               e.fields[2]);
      requestCompleted(s, e.fields[5], node, e.time);
      break;
    default:
      break;
  }
}

void TagBuilder::pointToPoint(LocationState& s, const Event& e, NodeId node) {
  const Ref comm = e.fields[1];
  const int64_t partner = ranks_->worldRankOf(comm, e.fields[0], s.location);
  const bool send = isSend(e.kind);
  if (partner < 0 || s.worldRank < 0) {
    ++(send ? graph_.unmatched.sends : graph_.unmatched.receives);
    return;
  }
  const uint32_t tag = static_cast<uint32_t>(e.fields[2]);
  if (send)
    messages_->send({s.worldRank, partner, comm, tag}, node, e.fields[3]);
  else
    messages_->receive({partner, s.worldRank, comm, tag}, node, e.fields[3]);
}

void TagBuilder::requestStarted(LocationState& s, uint64_t request, NodeId node, Tick time) {
  s.requests[request] = {node, time};
}

void TagBuilder::requestCompleted(LocationState& s, uint64_t request, NodeId node, Tick time) {
  const auto it = s.requests.find(request);
  if (it == s.requests.end()) return;  // started before the trace began, or not recorded
  const Tick lifetime = time >= it->second.time ? time - it->second.time : 0;
  graph_.edge(it->second.node, node, EdgeKind::Completion).profile.add(lifetime);
  s.requests.erase(it);
}

void TagBuilder::loopMarkers(LocationState& s, Tick time, bool atEnd) {
  crossed_.clear();
  if (!(atEnd ? s.loops->finish(crossed_) : s.loops->next(crossed_))) {
    ++loopMismatches_;
    s.loops.reset();
  }
  for (const LoopBoundary& b : crossed_)
    marker(s, (b.entry ? "LOOP_ENTRY " : "LOOP_EXIT ") + b.loop, time);
}

// A marker node on the call path open at `time`, as an activity of no duration.
void TagBuilder::marker(LocationState& s, const std::string& label, Tick time) {
  const PathId path = graph_.paths.child(s.currentPath(), graph_.paths.label(label));
  const NodeId node = startActivity(s, path, NodeKind::Marker, time);
  endActivity(s, node, time, time);
}

void TagBuilder::finishLocation(LocationState& s) {
  while (!s.stack.empty()) popFrame(s, s.lastTime);
  if (s.loops) loopMarkers(s, s.lastTime, true);
  const NodeId end = nodeOf(s, endPath_, NodeKind::Marker);
  graph_.nodes[end].profile.add(0);
  const Tick computation = s.lastTime >= s.lastEnd ? s.lastTime - s.lastEnd : 0;
  graph_.edge(s.lastNode, end, EdgeKind::Process).profile.add(computation);
  s.lastNode = end;
  if (observer_) observer_->activity(s.location, s.worldRank, endPath_, s.lastTime);
  graph_.unmatched.requests += s.requests.size();
  s.requests.clear();
}

void TagBuilder::end() {
  for (LocationState* s : order_) finishLocation(*s);
  collectives_->finish(graph_);
  graph_.unmatched.sends += messages_->waitingSends();
  graph_.unmatched.receives += messages_->waitingReceives();
}

}  // namespace mtf::tag
