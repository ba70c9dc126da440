#include "tag/tag_builder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tag/test_trace.hpp"

namespace mtf::tag {
namespace {

using testing::SmallTrace;

// The node of `location` whose call path reads `path`; fails the test if there is none.
const Node& nodeAt(const ActivityGraph& g, LocationId location, const std::string& path) {
  for (const Node& n : g.nodes)
    if (n.location == location && g.paths.text(n.path) == path) return n;
  ADD_FAILURE() << "no node " << path << " at location " << location;
  static const Node none;
  return none;
}

NodeId idOf(const ActivityGraph& g, LocationId location, const std::string& path) {
  return static_cast<NodeId>(&nodeAt(g, location, path) - g.nodes.data());
}

const EdgeData* edgeBetween(const ActivityGraph& g, LocationId la, const std::string& a,
                            LocationId lb, const std::string& b, EdgeKind kind) {
  const auto it = g.edges.find({idOf(g, la, a), idOf(g, lb, b), kind});
  return it == g.edges.end() ? nullptr : &it->second;
}

TEST(TagBuilder, OneNodePerCallPathWithTheCallsProfile) {
  SmallTrace t(1);
  t.enter(0, 0, t.main);
  t.enter(0, 10, t.f1);
  t.sendCall(0, 20, 0, 1, 8);  // 2 ticks
  t.leave(0, 30, t.f1);
  t.enter(0, 40, t.f2);
  t.sendCall(0, 50, 0, 1, 8);
  t.leave(0, 60, t.f2);
  t.enter(0, 70, t.f1);
  t.enter(0, 80, t.send);
  t.put(0, 81, EventKind::MpiSend, {0, t.world, 1, 8});
  t.leave(0, 86, t.send);  // 6 ticks
  t.leave(0, 90, t.f1);
  t.leave(0, 100, t.main);
  TagBuilder b;
  t.feed(b);
  const ActivityGraph& g = b.graph();
  const Node& viaF1 = nodeAt(g, 0, "main/f1/MPI_Send");
  EXPECT_EQ(viaF1.profile.count, 2u);
  EXPECT_EQ(viaF1.profile.total, 8u);
  EXPECT_EQ(viaF1.profile.min, 2u);
  EXPECT_EQ(viaF1.profile.max, 6u);
  EXPECT_DOUBLE_EQ(static_cast<double>(viaF1.profile.stddevTicks()), 2.0);
  EXPECT_EQ(nodeAt(g, 0, "main/f2/MPI_Send").profile.count, 1u);
  EXPECT_EQ(g.nodes.size(), 4u);  // START, two call paths, END
  EXPECT_EQ(nodeAt(g, 0, "START").kind, NodeKind::Marker);
}

TEST(TagBuilder, ProcessEdgesCarryTheComputationBetweenCalls) {
  SmallTrace t(1);
  t.enter(0, 100, t.main);
  for (Tick start : {110, 150, 200}) t.sendCall(0, start, 0, 1, 8);
  t.leave(0, 300, t.main);
  TagBuilder b;
  t.feed(b);
  const ActivityGraph& g = b.graph();
  const EdgeData* first = edgeBetween(g, 0, "START", 0, "main/MPI_Send", EdgeKind::Process);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->profile.total, 10u);  // first event at 100, first call at 110
  const EdgeData* loop = edgeBetween(g, 0, "main/MPI_Send", 0, "main/MPI_Send", EdgeKind::Process);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->profile.count, 2u);
  EXPECT_EQ(loop->profile.min, 150u - 112u);
  EXPECT_EQ(loop->profile.max, 200u - 152u);
  const EdgeData* last = edgeBetween(g, 0, "main/MPI_Send", 0, "END", EdgeKind::Process);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->profile.total, 300u - 202u);
}

TEST(TagBuilder, MessagesMatchInFifoOrderPerChannelWhicheverSideComesFirst) {
  for (bool receiverFirst : {false, true}) {
    SmallTrace t(2);
    auto sender = [&] {
      t.enter(0, 0, t.f1);
      t.sendCall(0, 1, 1, 5, 100);
      t.sendCall(0, 4, 1, 5, 100);
      t.leave(0, 7, t.f1);
      t.enter(0, 8, t.f2);
      t.sendCall(0, 9, 1, 5, 300);
      t.sendCall(0, 12, 1, 6, 7);  // another tag: another channel
      t.leave(0, 15, t.f2);
    };
    auto receiver = [&] {
      t.recvCall(1, 0, 0, 6, 7);  // tag 6 received first
      t.enter(1, 3, t.f1);
      t.recvCall(1, 4, 0, 5, 100);
      t.leave(1, 7, t.f1);
      t.enter(1, 8, t.f2);
      t.recvCall(1, 9, 0, 5, 100);
      t.recvCall(1, 12, 0, 5, 300);
      t.leave(1, 15, t.f2);
    };
    if (receiverFirst)
      receiver(), sender();
    else
      sender(), receiver();
    TagBuilder b;
    t.feed(b);
    const ActivityGraph& g = b.graph();
    const EdgeData* a = edgeBetween(g, 0, "f1/MPI_Send", 1, "f1/MPI_Recv", EdgeKind::Message);
    const EdgeData* c = edgeBetween(g, 0, "f1/MPI_Send", 1, "f2/MPI_Recv", EdgeKind::Message);
    const EdgeData* d = edgeBetween(g, 0, "f2/MPI_Send", 1, "f2/MPI_Recv", EdgeKind::Message);
    const EdgeData* e = edgeBetween(g, 0, "f2/MPI_Send", 1, "MPI_Recv", EdgeKind::Message);
    ASSERT_TRUE(a && c && d && e) << "receiver first: " << receiverFirst;
    EXPECT_EQ(a->count, 1u);
    EXPECT_EQ(c->count, 1u);
    EXPECT_EQ(c->bytes, 100u);
    EXPECT_EQ(d->count, 1u);
    EXPECT_EQ(d->bytes, 300u);
    EXPECT_EQ(e->count, 1u);
    EXPECT_EQ(g.unmatched.sends + g.unmatched.receives, 0u);
  }
}

TEST(TagBuilder, UnmatchedMessagesAreCounted) {
  SmallTrace t(2);
  t.sendCall(0, 0, 1, 1, 8);
  t.sendCall(0, 3, 1, 1, 8);
  t.recvCall(1, 0, 0, 1, 8);
  t.recvCall(1, 3, 0, 2, 8);  // another tag: never sent
  TagBuilder b;
  t.feed(b);
  EXPECT_EQ(b.graph().unmatched.sends, 1u);
  EXPECT_EQ(b.graph().unmatched.receives, 1u);
}

TEST(TagBuilder, CompletionEdgesJoinARequestsStartAndCompletion) {
  SmallTrace t(2);
  t.enter(0, 10, t.isend);
  t.put(0, 11, EventKind::MpiIsend, {1, t.world, 3, 64, 42});
  t.leave(0, 12, t.isend);
  t.enter(0, 20, t.wait);
  t.put(0, 31, EventKind::MpiIsendComplete, {42});
  t.leave(0, 32, t.wait);
  t.enter(1, 10, t.irecv);
  t.put(1, 10, EventKind::MpiIrecvRequest, {9});
  t.leave(1, 11, t.irecv);
  t.enter(1, 40, t.wait);
  t.put(1, 50, EventKind::MpiIrecv, {0, t.world, 3, 64, 9});
  t.leave(1, 51, t.wait);
  TagBuilder b;
  t.feed(b);
  const ActivityGraph& g = b.graph();
  const EdgeData* send = edgeBetween(g, 0, "MPI_Isend", 0, "MPI_Wait", EdgeKind::Completion);
  ASSERT_NE(send, nullptr);
  EXPECT_EQ(send->profile.total, 20u);  // 31 - 11
  const EdgeData* recv = edgeBetween(g, 1, "MPI_Irecv", 1, "MPI_Wait", EdgeKind::Completion);
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(recv->profile.total, 40u);
  // The message goes from the Isend to the call where the receive completes.
  const EdgeData* message = edgeBetween(g, 0, "MPI_Isend", 1, "MPI_Wait", EdgeKind::Message);
  ASSERT_NE(message, nullptr);
  EXPECT_EQ(message->bytes, 64u);
  EXPECT_EQ(g.unmatched.requests, 0u);
}

TEST(TagBuilder, CollectivesJoinTheirMembersByTheOperationsFlow) {
  SmallTrace t(3);
  for (LocationId r = 0; r < 3; ++r) {
    t.collectiveCall(r, 10, t.allreduce, 11, UINT32_MAX);
    t.collectiveCall(r, 20, t.bcast, 1, 1);  // root: rank 1
    t.collectiveCall(r, 30, t.allreduce, 11, UINT32_MAX);
  }
  TagBuilder b;
  t.feed(b);
  const ActivityGraph& g = b.graph();
  size_t allreducePairs = 0, bcastEdges = 0;
  for (const auto& [key, data] : g.edges) {
    if (key.kind != EdgeKind::Collective) continue;
    const std::string from = g.paths.text(g.nodes[key.from].path);
    if (from == "MPI_Allreduce") {
      ++allreducePairs;
      EXPECT_EQ(data.count, 2u);  // both instances are the same nodes
    } else {
      ++bcastEdges;
      EXPECT_EQ(g.nodes[key.from].location, 1u) << "a Bcast edge leaves the root";
    }
  }
  EXPECT_EQ(allreducePairs, 6u);
  EXPECT_EQ(bcastEdges, 2u);
  EXPECT_EQ(g.unmatched.collectives, 0u);
}

// Calls never left close with their caller; MPI events outside any MPI call are activities
// of their own, but for a send at the time its MPI call was left (Extrae's blocking send).
TEST(TagBuilder, CallsNeverLeftCloseWithTheirCallerAndLooseEventsAreActivities) {
  SmallTrace t(2);
  t.enter(0, 0, t.main);
  t.enter(0, 5, t.allreduce);
  t.enter(0, 6, t.send);  // never left: closed by main's Leave
  t.put(0, 7, EventKind::MpiSend, {1, t.world, 1, 4});
  t.leave(0, 9, t.allreduce);
  t.leave(0, 10, t.recv);                                // not open: ignored
  t.put(0, 12, EventKind::MpiSend, {1, t.world, 1, 4});  // outside any MPI call
  // Extrae's blocking send, after its call's Leave at the same time: the call's.
  t.enter(0, 14, t.send);
  t.leave(0, 16, t.send);
  t.put(0, 16, EventKind::MpiSend, {1, t.world, 1, 4});
  t.leave(0, 20, t.main);
  t.recvCall(1, 0, 0, 1, 4);
  t.recvCall(1, 3, 0, 1, 4);
  t.recvCall(1, 6, 0, 1, 4);
  TagBuilder b;
  t.feed(b);
  const ActivityGraph& g = b.graph();
  EXPECT_EQ(nodeAt(g, 0, "main/MPI_Allreduce").profile.total, 4u);
  EXPECT_EQ(nodeAt(g, 0, "main/MPI_Allreduce/MPI_Send").profile.total, 3u);
  EXPECT_EQ(nodeAt(g, 0, "main/MpiSend").profile.count, 1u);  // only the loose one
  EXPECT_NE(edgeBetween(g, 0, "main/MpiSend", 1, "MPI_Recv", EdgeKind::Message), nullptr);
  const EdgeData* fromCall = edgeBetween(g, 0, "main/MPI_Send", 1, "MPI_Recv", EdgeKind::Message);
  ASSERT_NE(fromCall, nullptr);
  EXPECT_EQ(fromCall->count, 1u);
  EXPECT_EQ(g.unmatched.sends + g.unmatched.receives, 0u);
  // Entering MPI_Send inside MPI_Allreduce: no computation between them.
  const EdgeData* nested =
      edgeBetween(g, 0, "main/MPI_Allreduce", 0, "main/MPI_Allreduce/MPI_Send", EdgeKind::Process);
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->profile.total, 0u);
}

TEST(MessageMatcher, RepeatedMessagesWaitAsOneRun) {
  ActivityGraph g;
  MessageMatcher m(g);
  const Channel c{0, 1, 0, 7};
  for (int i = 0; i < 1000; ++i) m.send(c, 3, 16);
  EXPECT_EQ(m.runs(), 1u);
  for (int i = 0; i < 999; ++i) m.receive(c, 4, 16);
  EXPECT_EQ(m.runs(), 1u);
  EXPECT_EQ(m.waitingSends(), 1u);
  const EdgeData& edge = g.edges.at({3, 4, EdgeKind::Message});
  EXPECT_EQ(edge.count, 999u);
  EXPECT_EQ(edge.bytes, 999u * 16);
}

TEST(Profile, NanosecondsFromTicksRoundToNearest) {
  EXPECT_EQ(ticksToNs(static_cast<unsigned __int128>(3), 1'000'000), 3000);
  EXPECT_EQ(ticksToNs(static_cast<unsigned __int128>(2), 3'000'000'000u), 1);  // 0.67 ns
  EXPECT_EQ(ticksToNs(static_cast<unsigned __int128>(1), 0), 0);
}

}  // namespace
}  // namespace mtf::tag
