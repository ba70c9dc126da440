// Extrae's blocking sends (otf2_convention.hpp): written inside their MPI call, read back
// after its Leave, as the Paraver reader gives them.
#include <gtest/gtest.h>

#include <algorithm>

#include "converters/otf2/otf2_reader.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "converters/otf2/otf2_writer.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::TempDir;

struct Trace {
  Definitions defs;
  std::vector<Event> events;
};

// Two ranks; rank 0 leaves MPI calls and sends at the same time as Extrae writes them.
Trace extraeSends(bool fromParaver) {
  Trace t;
  DefinitionBuilder b(t.defs);
  t.defs.clock = {1000000, 0, 1000, kUndefinedId};
  t.defs.info = {"paraver", "Extrae 4.0", "1", {}};
  if (fromParaver) t.defs.info.properties["paraver.header"] = "#Paraver (01/01/2026 at 00:00):1000";
  const uint64_t node = b.systemTreeNode("node", "machine");
  b.location(0, "thread 0", b.locationGroup("rank 0", node));
  b.location(1, "thread 1", b.locationGroup("rank 1", node));
  defineMpiWorld(b, {0, 1});
  const Ref send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
  const Ref user = b.region("compute", RegionRole::Function, Paradigm::User);
  auto add = [&](EventKind kind, Tick time, std::vector<uint64_t> fields, LocationId l = 0) {
    t.events.push_back({kind, l, time, std::move(fields), {}});
  };
  const std::vector<uint64_t> message = {1, 0, 7, 64};
  add(EventKind::Enter, 10, {send});
  add(EventKind::Leave, 20, {send});
  add(EventKind::MpiSend, 20, message);  // 1: goes inside the call
  add(EventKind::Enter, 30, {send});
  add(EventKind::Leave, 40, {send});
  add(EventKind::MpiSend, 41, message);  // 2: later than the Leave: stays
  add(EventKind::Enter, 50, {user});
  add(EventKind::Leave, 60, {user});
  add(EventKind::MpiSend, 60, message);  // 3: not an MPI call's Leave: stays
  add(EventKind::Enter, 70, {send});
  add(EventKind::Leave, 80, {send});  // the last event: written at the end
  for (Tick time : {20, 41, 60}) add(EventKind::MpiRecv, time + 5, {0, 0, 7, 64}, 1);
  return t;
}

// Location 0's event lines as otf2-print lists them: "NAME time", and "+" for an
// attribute line.
std::vector<std::string> rankZeroLines(const std::filesystem::path& anchor) {
  std::vector<std::string> out;
  bool ours = false;
  for (const std::string& line : testing::otf2PrintEventLines(anchor)) {
    std::istringstream in(line);
    std::string name, location, time;
    in >> name >> location >> time;
    if (name == "ADDITIONAL") {
      if (ours) out.back() += line.find("mtf:send_after_leave") != std::string::npos ? " +" : "";
      continue;
    }
    ours = location == "0";
    if (ours) out.push_back(name + " " + time);
  }
  return out;
}

std::filesystem::path write(const Trace& t, const std::filesystem::path& output) {
  Otf2Writer writer(output);
  writer.begin(t.defs);
  for (const Event& e : t.events) writer.event(e);
  writer.end();
  return output;
}

TEST(Otf2SendOrder, ASendLeavingItsCallIsWrittenInsideItAndReadBackAfterIt) {
  TempDir tmp;
  const Trace t = extraeSends(true);
  const auto output = write(t, tmp.path() / "sends.otf2");
  const std::vector<std::string> expected = {"ENTER 10",    "MPI_SEND 20 +", "LEAVE 20", "ENTER 30",
                                             "LEAVE 40",    "MPI_SEND 41",   "ENTER 50", "LEAVE 60",
                                             "MPI_SEND 60", "ENTER 70",      "LEAVE 80"};
  EXPECT_EQ(rankZeroLines(output), expected);
  const auto check = testing::run("otf2-print --silent -Werror " + testing::quoted(output));
  EXPECT_EQ(check.status, 0) << check.output;

  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  std::vector<Event> byLocation = t.events;
  std::stable_sort(byLocation.begin(), byLocation.end(),
                   [](const Event& a, const Event& b) { return a.location < b.location; });
  EXPECT_EQ(sink.events, byLocation);  // the attribute gone, the send after its Leave
  EXPECT_EQ(sink.defs.count(DefKind::Attribute), 0u);

  // Through mtf's reader and writer again: the same archive.
  const auto again = tmp.path() / "again.otf2";
  {
    Otf2Reader copy(output, {});
    Otf2Writer writer(again);
    copy.read(writer);
  }
  EXPECT_EQ(testing::otf2PrintEventLines(again), testing::otf2PrintEventLines(output));
}

TEST(Otf2SendOrder, OnlyATraceFromParaverHasItsSendsMoved) {
  TempDir tmp;
  const auto output = write(extraeSends(false), tmp.path() / "plain.otf2");
  const std::vector<std::string> expected = {
      "ENTER 10", "LEAVE 20", "MPI_SEND 20", "ENTER 30", "LEAVE 40", "MPI_SEND 41",
      "ENTER 50", "LEAVE 60", "MPI_SEND 60", "ENTER 70", "LEAVE 80"};
  EXPECT_EQ(rankZeroLines(output), expected);
  const std::string defs = testing::run("otf2-print -G " + testing::quoted(output)).output;
  EXPECT_EQ(defs.find("mtf:send_after_leave"), std::string::npos) << defs;
}

// Another writer's archive may carry the attribute where no Leave at the send's time
// follows: those sends stay where they are (the attribute dropped all the same); one
// last of its location is not lost.
TEST(Otf2SendOrder, AMarkedSendWithoutItsLeaveAfterItStaysWhereItIs) {
  TempDir tmp;
  Trace t = extraeSends(false);
  DefinitionBuilder b(t.defs);
  const Ref name = b.string("mtf:send_after_leave");
  t.defs.add({DefKind::Attribute, {0, name, name, 4 /* OTF2_TYPE_UINT64 */}, {}});
  const Ref outer = 0, inner = 1;  // MPI_Send, compute
  const std::vector<uint64_t> message = {1, 0, 7, 64};
  const std::vector<EventAttribute> marked = {{0, 4, 1}};
  t.events = {{EventKind::Enter, 0, 10, {outer}, {}},
              {EventKind::MpiSend, 0, 20, message, marked},  // then an Enter: stays
              {EventKind::Enter, 0, 30, {inner}, {}},
              {EventKind::MpiSend, 0, 40, message, marked},  // then a send: stays
              {EventKind::MpiSend, 0, 40, message, marked},  // then its Leave: after it
              {EventKind::Leave, 0, 40, {inner}, {}},
              {EventKind::Leave, 0, 50, {outer}, {}},
              {EventKind::MpiSend, 0, 50, message, marked},  // the location's last
              {EventKind::MpiRecv, 1, 60, {0, 0, 7, 64}, {}}};
  const auto output = write(t, tmp.path() / "marked.otf2");
  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  std::vector<Event> expected = t.events;
  for (Event& e : expected) e.attributes.clear();
  std::swap(expected[4], expected[5]);
  EXPECT_EQ(sink.events, expected);
}

}  // namespace
}  // namespace mtf::otf2
