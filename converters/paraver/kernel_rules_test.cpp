// paraver-kernel's record rules (kernel_rules.hpp), the reader's warnings about records
// paraver-kernel would skip, and the writer's resource section.
#include "converters/paraver/kernel_rules.hpp"

#include <gtest/gtest.h>

#include "converters/paraver/kernel_check.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"
#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

Header header(const std::string& line) {
  return parseHeader(line, "test.prv");
}

TEST(KernelRules, CpuListNumbersCpusNodeAfterNode) {
  const Header h = header("#Paraver (d):10:3(2,1,4):1:3(1:1,2:2,1:3)");
  const KernelRules rules(h);
  EXPECT_EQ(rules.totalCpus(), 7u);
  EXPECT_EQ(rules.cpusOfNode(1).first, 1u);
  EXPECT_EQ(rules.cpusOfNode(1).last, 2u);
  EXPECT_EQ(rules.cpusOfNode(2).first, 3u);
  EXPECT_EQ(rules.cpusOfNode(2).last, 3u);
  EXPECT_EQ(rules.cpusOfNode(3).first, 4u);
  EXPECT_EQ(rules.cpusOfNode(3).last, 7u);
  EXPECT_FALSE(rules.cpusOfNode(4).contains(8));
  EXPECT_EQ(rules.check(0, 1, 2, 2), Refusal::None);  // CPU 0: any existing thread
  EXPECT_EQ(rules.check(3, 1, 2, 1), Refusal::None);
  EXPECT_EQ(rules.check(1, 1, 2, 1), Refusal::CpuOfOtherNode);
  EXPECT_EQ(rules.check(8, 1, 3, 1), Refusal::CpuBeyondHeader);
  EXPECT_EQ(rules.check(1, 1, 1, 2), Refusal::UnknownThread);
  EXPECT_EQ(rules.check(1, 1, 4, 1), Refusal::UnknownThread);
  EXPECT_EQ(rules.check(1, 2, 1, 1), Refusal::UnknownThread);
  EXPECT_EQ(rules.check(1, 0, 1, 1), Refusal::UnknownThread);
}

TEST(KernelRules, NodeCountWithoutListMeansOneCpuPerNode) {
  // What mtf used to write: 1 node, no list, 8 tasks on CPUs 1..8.
  const Header oneNode = header("#Paraver (d):10:1:1:8(1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1)");
  const KernelRules one(oneNode);
  EXPECT_EQ(one.totalCpus(), 1u);
  EXPECT_EQ(one.check(1, 1, 1, 1), Refusal::None);
  EXPECT_EQ(one.check(2, 1, 2, 1), Refusal::CpuBeyondHeader);
  const Header fourNodes = header("#Paraver (d):10:4:1:4(1:1,1:2,1:3,1:4)");
  const KernelRules four(fourNodes);
  EXPECT_EQ(four.totalCpus(), 4u);
  EXPECT_EQ(four.check(3, 1, 3, 1), Refusal::None);
  EXPECT_EQ(four.check(3, 1, 2, 1), Refusal::CpuOfOtherNode);
}

TEST(KernelRules, NoResourcesAcceptOnlyCpuZero) {
  const Header noResources = header("#Paraver (d):10:0:1:2(1:0,1:0)");
  const KernelRules rules(noResources);
  EXPECT_EQ(rules.totalCpus(), 0u);
  EXPECT_EQ(rules.check(0, 1, 2, 1), Refusal::None);
  EXPECT_EQ(rules.check(1, 1, 1, 1), Refusal::CpuBeyondHeader);
}

TEST(RefusalTally, OneLinePerKindAndReasonWithCounts) {
  RefusalTally tally;
  tally.add(RecordKind::Event, Refusal::CpuBeyondHeader, 2, 5);
  tally.add(RecordKind::Event, Refusal::CpuBeyondHeader, 8, 9);
  tally.add(RecordKind::Event, Refusal::None, 1, 10);
  tally.add(RecordKind::State, Refusal::CpuOfOtherNode, 3, 12);
  EXPECT_EQ(tally.total(), 3u);
  const auto lines = tally.describe(1);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "1 state record names a CPU of another node than the one its task runs on (first "
            "CPU 3) (first at line 12); paraver-kernel skips it");
  EXPECT_EQ(lines[1],
            "2 event records name CPUs up to 8 but the header declares 1 CPU (first at line 5); "
            "paraver-kernel skips them");
}

// Records a paraver-kernel would skip, read by mtf (kept) with one warning per kind.
const char* kBadCpus =
    "#Paraver (01/01/26 at 00:00):1000_ns:2(2,1):1:3(1:1,1:1,1:2)\n"
    "2:1:1:1:1:10:60000019:1\n"             // fine: CPU 1 on node 1
    "2:5:1:1:1:20:60000019:0\n"             // CPU 5 > 3 CPUs
    "2:7:1:2:1:30:60000019:0\n"             // CPU 7 > 3 CPUs
    "2:3:1:1:1:40:1:1\n"                    // CPU 3 is node 2's, task 1 runs on node 1
    "1:2:1:2:1:0:50:1\n"                    // fine
    "1:9:1:3:1:0:50:1\n"                    // CPU 9 > 3 CPUs
    "3:1:1:1:1:50:50:3:1:3:1:60:60:8:1\n"   // fine at both ends
    "3:1:1:1:1:70:70:1:1:3:1:80:80:8:1\n";  // receiver: CPU 1 for a task on node 2

TEST(ParaverReaderWarnings, CountsRecordsParaverKernelWouldSkip) {
  TempDir dir;
  dir.write("bad.prv", kBadCpus);
  ParaverReader reader(dir.file("bad.prv"), {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(reader.counts().eventLines, 4u);  // every record kept
  EXPECT_EQ(reader.counts().states, 2u);
  EXPECT_EQ(reader.counts().communications, 2u);
  const RefusalTally& tally = reader.counts().kernelRefusals;
  EXPECT_EQ(tally.count(RecordKind::Event, Refusal::CpuBeyondHeader), 2u);
  EXPECT_EQ(tally.count(RecordKind::Event, Refusal::CpuOfOtherNode), 1u);
  EXPECT_EQ(tally.count(RecordKind::State, Refusal::CpuBeyondHeader), 1u);
  EXPECT_EQ(tally.count(RecordKind::Communication, Refusal::CpuOfOtherNode), 1u);
  EXPECT_EQ(tally.total(), 5u);
  const auto& warnings = reader.readWarnings();
  ASSERT_EQ(warnings.size(), 4u);
  const std::string path = dir.file("bad.prv");
  EXPECT_EQ(warnings[0], path +
                             ": 1 state record names CPU 9 but the header declares 3 CPUs (first "
                             "at line 7); paraver-kernel skips it");
  EXPECT_EQ(warnings[1], path +
                             ": 2 event records name CPUs up to 7 but the header declares 3 CPUs "
                             "(first at line 3); paraver-kernel skips them");
  EXPECT_NE(warnings[2].find("1 event record names a CPU of another node"), std::string::npos);
  EXPECT_EQ(warnings[3], path +
                             ": 1 communication record names at one end a CPU of another node "
                             "than the one its task runs on (first CPU 1) (first at line 9); "
                             "paraver-kernel skips it");
  // The independent checker agrees record by record.
  const KernelCheck check = checkLikeParaverKernel(dir.file("bad.prv"));
  EXPECT_EQ(check.refused[0], 1u);
  EXPECT_EQ(check.refused[1], 3u);
  EXPECT_EQ(check.refused[2], 1u);
  EXPECT_EQ(check.accepted[2], 1u);
  EXPECT_EQ(check.firstRefused, "line 3: 2:5:1:1:1:20:60000019:0");
}

TEST(ParaverReaderWarnings, ValidFileHasNoWarning) {
  ParaverReader reader(testing::kLulesh, {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_TRUE(reader.readWarnings().empty());
  EXPECT_EQ(checkLikeParaverKernel(testing::kLulesh).refusedTotal(), 0u);
}

TEST(ParaverReaderWarnings, UnknownThreadsFailOrAreSkippedWithCounts) {
  TempDir dir;
  dir.write("t.prv",
            "#Paraver (d):100_ns:1(2):1:2(1:1,1:1)\n"
            "2:1:1:1:1:10:1:1\n"
            "2:1:1:3:1:20:1:1\n"  // no task 3
            "2:1:1:1:2:30:1:1\n"  // task 1 has one thread
            "2:1:1:4:1:40:1:1\n");
  {
    ParaverReader strict(dir.file("t.prv"), {});
    CollectSink sink;
    try {
      strict.read(sink);
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
  }
  ReadOptions lenient;
  lenient.lenient = true;
  ParaverReader reader(dir.file("t.prv"), lenient);
  CollectSink sink;
  reader.read(sink);
  ASSERT_EQ(reader.readWarnings().size(), 1u);
  EXPECT_EQ(reader.readWarnings()[0],
            dir.file("t.prv") +
                ": 3 records skipped (lenient): application, task or thread outside the "
                "header's range (first at line 3)");
  EXPECT_EQ(checkLikeParaverKernel(dir.file("t.prv")).refused[1], 3u);
}

TEST(ParaverReaderWarnings, HeadersAndBodiesParaverKernelRefuses) {
  TempDir dir;
  dir.write("empty.prv", "#Paraver (d):100_ns:1(1):2:1(1:1),0()\n4:1:1:1:1:5:0:8:8:10:0\n");
  ParaverReader reader(dir.file("empty.prv"), {});
  CollectSink sink;
  reader.read(sink);
  ASSERT_EQ(reader.warnings().size(), 3u);  // with the missing .pcf and .row
  EXPECT_EQ(reader.warnings()[0], dir.file("empty.prv") +
                                      ": line 1: application 2 has no task; paraver-kernel "
                                      "refuses the header");
  ASSERT_EQ(reader.readWarnings().size(), 1u);
  EXPECT_EQ(reader.readWarnings()[0],
            dir.file("empty.prv") +
                ": no state, event or communication record; paraver-kernel "
                "refuses a trace without records");
  EXPECT_FALSE(checkLikeParaverKernel(dir.file("empty.prv")).loadable());
}

// Three ranks on two nodes, the second rank on the other node: the CPUs are numbered node
// after node, each thread gets a CPU of its own node.
TEST(ParaverWriterResources, CpusFollowTheNodesOfTheTasks) {
  Definitions defs;
  DefinitionBuilder b(defs);
  defs.clock.resolution = 1'000'000'000;
  const uint64_t nodeA = b.systemTreeNode("node-a", "node");
  const uint64_t nodeB = b.systemTreeNode("node-b", "node");
  const uint64_t nodes[] = {nodeA, nodeB, nodeA};
  for (int r = 0; r < 3; ++r)
    b.location(r, "rank " + std::to_string(r),
               b.locationGroup("proc " + std::to_string(r), nodes[r]));
  const Ref world = defineMpiWorld(b, {0, 1, 2});
  const Ref f = b.region("work", RegionRole::Function, Paradigm::User);
  TempDir dir;
  ParaverWriter writer(dir.file("n.prv"), {});
  writer.begin(defs);
  Event e;
  for (LocationId l = 0; l < 3; ++l) {
    e.set(EventKind::Enter, l, 10, {f});
    writer.event(e);
    e.set(EventKind::MpiSend, l, 20, {(l + 1) % 3, world, 1, 8});
    writer.event(e);
    e.set(EventKind::MpiRecv, l, 30, {(l + 2) % 3, world, 1, 8});
    writer.event(e);
    e.set(EventKind::Leave, l, 40, {f});
    writer.event(e);
  }
  writer.end();
  EXPECT_TRUE(writer.losses().empty());
  const auto lines = testing::fileLines(dir.file("n.prv"));
  EXPECT_NE(lines[0].find(":2(2,1):1:3(1:1,1:2,1:1)"), std::string::npos) << lines[0];
  const auto records = testing::sortedRecords(dir.file("n.prv"));
  EXPECT_EQ(std::count(records.begin(), records.end(), "2:1:1:1:1:10:60000019:1"), 1);
  EXPECT_EQ(std::count(records.begin(), records.end(), "2:3:1:2:1:10:60000019:1"), 1);
  EXPECT_EQ(std::count(records.begin(), records.end(), "2:2:1:3:1:10:60000019:1"), 1);
  const KernelCheck check = checkLikeParaverKernel(dir.file("n.prv"));
  EXPECT_EQ(check.refusedTotal(), 0u) << check.firstRefused;
  EXPECT_EQ(check.accepted[2], 3u);
  EXPECT_EQ(check.sendsCounted, 3u);
  ParaverReader reader(dir.file("n.prv"), {});
  CollectSink back;
  reader.read(back);
  EXPECT_TRUE(reader.readWarnings().empty());
}

// A file mtf used to write (one node, no CPU list, CPUs 1 and 2): read with a warning,
// written again with CPUs paraver-kernel accepts, the replacement reported.
TEST(ParaverWriterResources, RefusedCpusOfAParaverInputAreReplaced) {
  TempDir dir;
  dir.write("old.prv",
            "#Paraver (d):100_ns:1:1:2(1:1,1:1)\n"
            "2:1:1:1:1:10:1:1\n"
            "2:2:1:2:1:20:1:1\n"
            "3:1:1:1:1:30:30:2:1:2:1:40:40:8:1\n");
  ParaverReader reader(dir.file("old.prv"), {});
  ParaverWriter writer(dir.file("new.prv"), {});
  reader.read(writer);
  ASSERT_EQ(reader.readWarnings().size(), 2u);
  EXPECT_EQ(writer.losses().size(), 1u);
  EXPECT_EQ(writer.losses().begin()->second, 2u);  // the event and the receive
  EXPECT_EQ(checkLikeParaverKernel(dir.file("old.prv")).refusedTotal(), 2u);
  const KernelCheck check = checkLikeParaverKernel(dir.file("new.prv"));
  EXPECT_EQ(check.refusedTotal(), 0u) << check.firstRefused;
  EXPECT_EQ(check.accepted[1], 2u);
  EXPECT_EQ(check.accepted[2], 1u);
}

}  // namespace
}  // namespace mtf::paraver
