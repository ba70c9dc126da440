// The checker the generator's tests rely on must see every kind of defect: each test
// builds a small two-rank stream by hand with one defect and expects exactly it.
#include "gen/trace_check.hpp"

#include <gtest/gtest.h>

#include "model/mpi_ranks.hpp"

namespace mtf::gen {
namespace {

class TwoRanks : public ::testing::Test {
 protected:
  void SetUp() override {
    DefinitionBuilder b(defs_);
    const uint64_t node = b.systemTreeNode("n", "node");
    for (LocationId r = 0; r < 2; ++r) b.location(r, "t", b.locationGroup("p", node));
    world_ = defineMpiWorld(b, {0, 1});
    region_ = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    sink_.begin(defs_);
  }
  void add(EventKind kind, LocationId loc, Tick t, std::initializer_list<uint64_t> fields) {
    Event e;
    e.set(kind, loc, t, fields);
    sink_.event(e);
  }
  void send(LocationId from, Tick t, uint64_t tag, uint64_t length) {
    add(EventKind::MpiSend, from, t, {1 - from, world_, tag, length});
  }
  void recv(LocationId to, Tick t, uint64_t tag, uint64_t length) {
    add(EventKind::MpiRecv, to, t, {1 - to, world_, tag, length});
  }
  const CheckReport& finish() {
    sink_.end();
    return sink_.report();
  }
  Definitions defs_;
  Ref world_ = 0, region_ = 0;
  TraceCheckSink sink_;
};

TEST_F(TwoRanks, MatchedMessagesAreClean) {
  send(0, 10, 1, 100);
  send(1, 12, 1, 50);
  recv(1, 20, 1, 100);
  recv(0, 30, 1, 50);
  const CheckReport& r = finish();
  EXPECT_TRUE(r.clean()) << r.summary();
  EXPECT_EQ(r.messages, 2u);
}

TEST_F(TwoRanks, UnmatchedSendAndWrongTagAreSeen) {
  send(0, 10, 1, 100);
  recv(1, 20, 2, 100);  // other tag: does not match
  const CheckReport& r = finish();
  EXPECT_EQ(r.unmatchedSends, 1u);
  EXPECT_EQ(r.unmatchedReceives, 1u);
}

TEST_F(TwoRanks, SizeMismatchAndReceiveBeforeSendAreSeen) {
  recv(1, 5, 1, 64);
  send(0, 10, 1, 100);
  const CheckReport& r = finish();
  EXPECT_EQ(r.sizeMismatches, 1u);
  EXPECT_EQ(r.receivesBeforeSend, 1u);
}

TEST_F(TwoRanks, TimeOrderNestingAndRequestsAreChecked) {
  add(EventKind::Enter, 0, 10, {region_});
  add(EventKind::Leave, 0, 5, {region_});  // backwards in time
  add(EventKind::Leave, 0, 6, {region_});  // nothing open
  add(EventKind::MpiIrecvRequest, 1, 1, {7});
  add(EventKind::MpiIrecvRequest, 1, 2, {3});   // not increasing; 7 and 3 never complete
  add(EventKind::MpiIsendComplete, 1, 3, {9});  // unknown request
  const CheckReport& r = finish();
  EXPECT_EQ(r.outOfOrder, 1u);
  EXPECT_EQ(r.badNesting, 1u);
  EXPECT_EQ(r.requestsNotIncreasing, 1u);
  EXPECT_EQ(r.requestErrors, 3u);
}

TEST_F(TwoRanks, DifferentCollectivesDisagree) {
  add(EventKind::MpiCollectiveEnd, 0, 1, {11, world_, 0xFFFFFFFFu, 8, 8});
  add(EventKind::MpiCollectiveEnd, 1, 1, {0, world_, 0xFFFFFFFFu, 0, 0});
  EXPECT_FALSE(finish().collectivesAgree);
}

}  // namespace
}  // namespace mtf::gen
