// MPI collectives through Paraver (collectives.hpp): the writer's global OP pairs, the
// reader's rebuild of MpiCollectiveBegin/End from them, and Extrae's own pairs left alone.
#include "converters/paraver/collectives.hpp"

#include <gtest/gtest.h>

#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

constexpr uint64_t kBcast = 1, kAllreduce = 11;

// 3 ranks in nanoseconds: a bcast from rank 2 on the world, an allreduce on {0, 2}, an
// alltoall on COMM_SELF, each inside its MPI call.
struct CollectiveTrace {
  Definitions defs;
  Ref world = 0, pair = 0, self = 0;
  std::vector<Event> events;

  CollectiveTrace() {
    DefinitionBuilder b(defs);
    defs.clock.resolution = 1'000'000'000;
    const uint64_t node = b.systemTreeNode("node-a", "node");
    for (int r = 0; r < 3; ++r)
      b.location(r, "rank " + std::to_string(r),
                 b.locationGroup("proc " + std::to_string(r), node));
    world = defineMpiWorld(b, {0, 1, 2});
    pair = defineMpiComm(b, "pair", {0, 2}, world);
    const Ref selfGroup = b.group("", static_cast<uint8_t>(GroupType::CommSelf), Paradigm::Mpi, {});
    self = b.comm("MPI_COMM_SELF", selfGroup);
    const Ref bcast = b.region("MPI_Bcast", RegionRole::CollOne2All, Paradigm::Mpi);
    for (LocationId l = 0; l < 3; ++l) {
      collective(l, 100, bcast, {kBcast, world, 2, l == 2 ? 64u : 0u, 64});
      if (l != 1) collective(l, 200, bcast, {kAllreduce, pair, kNoRoot, 8, 8});
      collective(l, 300, bcast, {8, self, kNoRoot, 4, 4});
    }
  }
  void collective(LocationId l, Tick t, Ref region, std::initializer_list<uint64_t> end) {
    add(EventKind::Enter, l, t, {region});
    add(EventKind::MpiCollectiveBegin, l, t + 1, {});
    add(EventKind::MpiCollectiveEnd, l, t + 5, end);
    add(EventKind::Leave, l, t + 5, {region});
  }
  void add(EventKind k, LocationId l, Tick t, std::initializer_list<uint64_t> f) {
    Event e;
    e.set(k, l, t, f);
    events.push_back(e);
  }
  LossReport writeTo(const std::string& path) {
    ParaverWriter writer(path, {});
    writer.begin(defs);
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
    for (const Event& e : events) writer.event(e);
    writer.end();
    return writer.losses();
  }
};

bool hasLine(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(ParaverCollectives, WriterWritesGlobalOpPairsAndCommunicators) {
  TempDir dir;
  CollectiveTrace trace;
  EXPECT_TRUE(trace.writeTo(dir.file("c.prv")).empty());
  const auto lines = testing::fileLines(dir.file("c.prv"));
  EXPECT_TRUE(lines[0].ends_with(",5")) << lines[0];  // world, pair, self of each rank
  EXPECT_TRUE(hasLine(lines, "c:1:1:3:1:2:3"));
  EXPECT_TRUE(hasLine(lines, "c:1:2:2:1:3"));
  EXPECT_TRUE(hasLine(lines, "c:1:3:1:1"));
  // Begin, then end with send size, recv size, root (bcast), communicator.
  EXPECT_TRUE(hasLine(lines, "2:3:1:3:1:101:59000001:1"));
  EXPECT_TRUE(hasLine(lines,
                      "2:3:1:3:1:105:59000002:2:50100001:64:50100002:64:50100003:2:50100004:1:"
                      "50000002:0"));
  // Allreduce: no root.
  EXPECT_TRUE(hasLine(lines,
                      "2:1:1:1:1:205:59000002:12:50100001:8:50100002:8:50100004:2:"
                      "50000002:0"));
  std::string pcf;
  ASSERT_TRUE(readSmallFile(dir.file("c.pcf"), pcf));
  EXPECT_NE(pcf.find("1    50100001    Send Size in MPI Global OP"), std::string::npos);
  EXPECT_NE(pcf.find("1    50100004    Communicator in MPI Global OP"), std::string::npos);
  EXPECT_TRUE(marksMtfCollectives(pcf));
}

TEST(ParaverCollectives, ReaderRebuildsTheWrittenCollectives) {
  TempDir dir;
  CollectiveTrace trace;
  trace.writeTo(dir.file("c.prv"));
  ParaverReader reader(dir.file("c.prv"), {});
  CollectSink back;
  reader.read(back);
  EXPECT_EQ(back.count(EventKind::MpiCollectiveBegin), 8u);
  EXPECT_EQ(back.count(EventKind::MpiCollectiveEnd), 8u);
  EXPECT_EQ(back.count(EventKind::Generic), 0u);
  EXPECT_EQ(back.events.size(), reader.counts().modelEvents());
  const RankMap ranks(back.defs_);
  std::vector<Event> ends;
  for (const Event& e : back.events)
    if (e.kind == EventKind::MpiCollectiveEnd) ends.push_back(e);
  ASSERT_EQ(ends.size(), 8u);
  std::stable_sort(ends.begin(), ends.end(),
                   [](const Event& a, const Event& b) { return a.location < b.location; });
  // Location 2: bcast (root 2, sent 64), allreduce on {0, 2} (rank 1 there), alltoall on self.
  const Event& bcast = ends[5];
  EXPECT_EQ(bcast.time, 105u);
  EXPECT_EQ(bcast.fields[0], kBcast);
  EXPECT_EQ(bcast.fields[2], 2u);
  EXPECT_EQ(bcast.fields[3], 64u);
  EXPECT_EQ(bcast.fields[4], 64u);
  EXPECT_EQ(ranks.locationOf(static_cast<Ref>(bcast.fields[1]), 2, 2), 2u);
  const Event& allreduce = ends[6];
  EXPECT_EQ(allreduce.fields[0], kAllreduce);
  EXPECT_EQ(allreduce.fields[2], kNoRoot);
  EXPECT_EQ(ranks.rankIn(static_cast<Ref>(allreduce.fields[1]), 2), 1);
  EXPECT_EQ(ranks.locationOf(static_cast<Ref>(allreduce.fields[1]), 0, 2), 0u);
  const Event& alltoall = ends[7];
  EXPECT_EQ(alltoall.fields[0], 8u);
  EXPECT_EQ(alltoall.fields[3], 4u);
  EXPECT_EQ(ranks.locationOf(static_cast<Ref>(alltoall.fields[1]), 0, 2), 2u);
}

TEST(ParaverCollectives, MtfTraceRoundTripsByteIdentical) {
  TempDir dir;
  CollectiveTrace trace;
  trace.writeTo(dir.file("a.prv"));
  const auto written = testing::sortedRecords(dir.file("a.prv"));
  EXPECT_EQ(std::count_if(written.begin(), written.end(),
                          [](const std::string& l) { return l.find(":59000002:") != l.npos; }),
            8);
  {
    ParaverReader reader(dir.file("a.prv"), {});
    ParaverWriter writer(dir.file("b.prv"), {});
    reader.read(writer);
    EXPECT_TRUE(writer.losses().empty());
  }
  // The same header and records (lines of equal time of different threads may come in
  // another order, as for every Paraver input: the tests of paraver_writer_test.cpp compare
  // the same way), the same .pcf and .row.
  EXPECT_EQ(testing::fileLines(dir.file("a.prv")).front(),
            testing::fileLines(dir.file("b.prv")).front());
  EXPECT_EQ(testing::sortedRecords(dir.file("a.prv")), testing::sortedRecords(dir.file("b.prv")));
  for (const char* ext : {".pcf", ".row"}) {
    std::string a, b;
    ASSERT_TRUE(readSmallFile(dir.file(std::string("a") + ext), a));
    ASSERT_TRUE(readSmallFile(dir.file(std::string("b") + ext), b));
    EXPECT_EQ(a, b) << ext;
  }
}

// A communicator Paraver cannot name: reported with its count, the pairs read back Generic.
TEST(ParaverCollectives, UnnamedCommunicatorIsReportedNotSilent) {
  TempDir dir;
  CollectiveTrace trace;
  trace.add(EventKind::MpiCollectiveBegin, 0, 400, {});
  trace.add(EventKind::MpiCollectiveEnd, 0, 401, {kAllreduce, 999, kNoRoot, 8, 8});
  const LossReport losses = trace.writeTo(dir.file("c.prv"));
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_EQ(losses.begin()->second, 1u);
  EXPECT_EQ(losses.begin()->first.rfind("MpiCollectiveEnd events ", 0), 0u);
  ParaverReader reader(dir.file("c.prv"), {});
  CollectSink back;
  reader.read(back);
  EXPECT_EQ(back.count(EventKind::MpiCollectiveEnd), 8u);
  EXPECT_EQ(back.count(EventKind::Generic), 4u);  // op, send size, recv size, comm 0
}

// Extrae's own global OP pairs (lulesh) stay Generic events; only mtf's .pcf mark and the
// exact form of the pairs make collectives.
TEST(ParaverCollectives, ExtraePairsStayGeneric) {
  ParaverReader reader(testing::kLulesh, {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.count(EventKind::MpiCollectiveEnd), 0u);
  uint64_t globalOpPairs = 0;
  for (const Event& e : sink.events)
    globalOpPairs += e.kind == EventKind::Generic && e.fields[0] >= kGlobalOpSendSizeType &&
                     e.fields[0] <= kGlobalOpCommType;
  EXPECT_GT(globalOpPairs, 0u);
}

TEST(ParaverCollectives, OnlyTheExactFormIsRebuilt) {
  CollectiveEnd end;
  const TypeValue written[] = {{kCollectiveOpType, 2},     {kGlobalOpSendSizeType, 4},
                               {kGlobalOpRecvSizeType, 4}, {kGlobalOpRootType, 0},
                               {kGlobalOpCommType, 1},     {50000002, 0}};
  EXPECT_EQ(matchCollectiveEnd(written, 6, end), 5u);
  EXPECT_EQ(end.op, kBcast);
  EXPECT_EQ(end.root, 0u);
  // A rooted op without its root, a pair missing, another order: not mtf's.
  const TypeValue noRoot[] = {{kCollectiveOpType, 2},
                              {kGlobalOpSendSizeType, 4},
                              {kGlobalOpRecvSizeType, 4},
                              {kGlobalOpCommType, 1}};
  EXPECT_EQ(matchCollectiveEnd(noRoot, 4, end), 0u);
  EXPECT_EQ(matchCollectiveEnd(written, 4, end), 0u);
  const TypeValue swapped[] = {{kCollectiveOpType, 12},
                               {kGlobalOpRecvSizeType, 4},
                               {kGlobalOpSendSizeType, 4},
                               {kGlobalOpCommType, 1}};
  EXPECT_EQ(matchCollectiveEnd(swapped, 4, end), 0u);
  TypeValue pairs[5];
  EXPECT_EQ(collectiveEndPairs({11, 3, kNoRoot, 8, 8}, pairs), 4u);
  EXPECT_EQ(matchCollectiveEnd(pairs, 4, end), 4u);
  EXPECT_EQ(end.commId, 3u);
}

}  // namespace
}  // namespace mtf::paraver
