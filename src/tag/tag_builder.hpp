// The TAG stage: a TraceSink that builds every process's Task Activity Graph in one pass
// over the events (seed 004, sections 2.1-2.3). Memory is the graph plus, per location,
// the open call stack and the open non-blocking requests, plus the run-length coded
// queues of messages and collective calls waiting for their partner.
//
// Choices where the seed leaves room (also in README.md):
// - A communication activity is one MPI call: an Enter/Leave pair of a region whose
//   paradigm is MPI (every one, also MPI_Init or MPI_Comm_rank, also one entered inside
//   another MPI call). An MPI event outside any MPI call (some Paraver and TAU traces) is
//   an activity of its own, of zero duration, named by its kind (MpiSend, MpiRecv,
//   MpiIsend, MpiIrecv, MpiIrecvRequest, MpiIsendComplete, MpiCollectiveEnd,
//   NonBlockingCollectiveRequest, NonBlockingCollectiveComplete).
// - Its node is its call path (the names of the open regions, outermost first, ending
//   with the MPI call) on its location; the node's profile is the call's duration.
// - A process edge joins each activity to the next one that starts on the same location;
//   its time is the computation between them: the next start minus the latest end of the
//   activities before it (zero when it starts inside another MPI call).
// - Marker nodes START and END stand for the location's first and last event.
// - A Leave of a region that is not the innermost open one closes the inner ones too
//   (calls never left); a Leave of a region that is not open is ignored. Calls still open
//   at the end close at the location's last event.
// - Completion edges: from the call that started a request (MpiIsend, MpiIrecvRequest,
//   NonBlockingCollectiveRequest) to the call that completed it; their time is the
//   request's lifetime (completion event minus start event).
// - Loop markers (loop_cursor.hpp) where NLR loop nests are given (setLoops: an MTF file's
//   stored loops): a marker node "LOOP_ENTRY L3" / "LOOP_EXIT L3" at the event that enters
//   or follows the loop, on the call path open there; a location whose nest does not match
//   its events loses its markers from that point (counted in loopMismatches()).
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"
#include "nlr/loop_model.hpp"
#include "tag/activity_graph.hpp"
#include "tag/collective_matcher.hpp"
#include "tag/loop_cursor.hpp"
#include "tag/message_matcher.hpp"
#include "tag/recent.hpp"
#include "tag/recent_edges.hpp"

namespace mtf::tag {

// Told each activity of each location as it starts, in the location's order (causal paths).
class ActivityObserver {
 public:
  virtual ~ActivityObserver() = default;
  virtual void activity(LocationId location, int64_t worldRank, PathId path, Tick start) = 0;
};

class TagBuilder : public TraceSink {
 public:
  explicit TagBuilder(ActivityObserver* observer = nullptr);
  void setObserver(ActivityObserver* observer) { observer_ = observer; }
  // Loop nests by location (before begin()): their entries and exits become marker nodes.
  void setLoops(std::unordered_map<LocationId, nlr::LoopModel> loops) { loops_ = std::move(loops); }
  // Locations whose loop nest did not match their events.
  uint64_t loopMismatches() const { return loopMismatches_; }
  ~TagBuilder() override;

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  // Batches let a reader that reads on two lanes (OTF2) do so while this stage works on
  // the batches already read (the default events() walks each batch in order).
  bool prefersBatches() const override { return true; }
  void end() override;

  // The graph (complete after end()).
  const ActivityGraph& graph() const { return graph_; }
  ActivityGraph& graph() { return graph_; }

 private:
  struct LocationState;
  LocationState& stateOf(LocationId location);
  LocationState& createState(LocationId location);
  void enter(LocationState& s, Ref region, Tick time);
  void leave(LocationState& s, Ref region, Tick time);
  void popFrame(LocationState& s, Tick time);
  NodeId startActivity(LocationState& s, PathId path, NodeKind kind, Tick time);
  void endActivity(LocationState& s, NodeId node, Tick start, Tick end);
  NodeId nodeOf(LocationState& s, PathId path, NodeKind kind);
  void mpiEvent(LocationState& s, const Event& e);
  void pointToPoint(LocationState& s, const Event& e, NodeId node);
  void requestStarted(LocationState& s, uint64_t request, NodeId node, Tick time);
  void requestCompleted(LocationState& s, uint64_t request, NodeId node, Tick time);
  void finishLocation(LocationState& s);
  void loopMarkers(LocationState& s, Tick time, bool atEnd);
  void marker(LocationState& s, const std::string& label, Tick time);

  ActivityObserver* observer_;
  ActivityGraph graph_;
  Definitions defs_;
  std::unique_ptr<RankMap> ranks_;
  std::unique_ptr<MessageMatcher> messages_;
  std::unique_ptr<CollectiveMatcher> collectives_;
  std::vector<LabelId> regionLabel_;  // region ref -> label of its name
  std::vector<bool> mpiRegion_;       // region ref -> paradigm is MPI
  std::vector<LabelId> kindLabel_;    // event kind -> label of its name
  PathId startPath_ = 0;
  PathId endPath_ = 0;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> states_;
  std::vector<LocationState*> order_;  // locations in the order they first appeared
  LocationState* last_ = nullptr;
  RecentEdges processEdges_{graph_, EdgeKind::Process};
  std::unordered_map<LocationId, nlr::LoopModel> loops_;
  std::vector<LoopBoundary> crossed_;  // scratch
  uint64_t loopMismatches_ = 0;
};

}  // namespace mtf::tag
