// Paraver through the registry: sniffing, and conversions with OTF2 in both directions.
#include <gtest/gtest.h>

#include <set>

#include "converters/otf2/otf2_test_util.hpp"
#include "converters/paraver/extrae.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

TEST(ParaverRegistry, SniffsAndChoosesByExtension) {
  EXPECT_EQ(detectInputFormat(testing::kQsort).name, "paraver");
  EXPECT_EQ(detectInputFormat(testing::kQsortGz).name, "paraver");
  EXPECT_EQ(detectInputFormat(testing::kLulesh).name, "paraver");
  EXPECT_EQ(formatForOutput("out/x.prv").name, "paraver");
  EXPECT_EQ(formatForOutput("out/x.prv.gz").name, "paraver");
}

// The MpiSend records of the OTF2 archive `anchor` (as otf2-print lists them) that come just
// after the Leave of an MPI call at the same time on the same location: Extrae's blocking
// sends, which OTF2 tools look for inside their call (otf2_convention.hpp).
size_t sendsAfterTheirCallsLeave(const std::string& anchor) {
  size_t found = 0;
  std::map<std::string, std::string> previous;  // location -> "NAME time" and the line
  for (const std::string& line : otf2::testing::otf2PrintEventLines(anchor)) {
    std::istringstream in(line);
    std::string name, location, time;
    in >> name >> location >> time;
    if (name == "ADDITIONAL") continue;
    const std::string& before = previous[location];
    if (name == "MPI_SEND" && before.rfind("LEAVE " + time + " ", 0) == 0 &&
        before.find("\"MPI_") != std::string::npos)
      ++found;
    previous[location] = name + " " + time + " " + line;
  }
  return found;
}

// .prv -> OTF2 -> .prv gives back the same records and .pcf.
void expectOtf2RoundTrip(const std::string& input) {
  const FormatEntry* otf2 = formatByName("otf2");
  ASSERT_TRUE(otf2 && otf2->openWriter && otf2->openReader);
  TempDir dir;
  const std::string archive = dir.file("t.otf2");
  {
    auto source = openTrace(input, {});
    auto writer = otf2->openWriter(archive, {});
    source->read(*writer);
  }
  EXPECT_EQ(sendsAfterTheirCallsLeave(archive), 0u);
  auto back = openTrace(archive, {});
  const std::string output = dir.file("back.prv");
  ParaverWriter writer(output, {});
  back->read(writer);
  EXPECT_TRUE(writer.losses().empty());
  const auto expected = testing::sortedRecords(input);
  const auto got = testing::sortedRecords(output);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
  EXPECT_EQ(testing::fileLines(output).front(), testing::fileLines(input).front());
  std::string a, b;
  readSmallFile(companionPath(input, ".pcf"), a);
  readSmallFile(companionPath(output, ".pcf"), b);
  EXPECT_EQ(a, b);
}

TEST(ParaverRegistry, RoundTripThroughOtf2Qsort) {
  expectOtf2RoundTrip(testing::kQsort);
}
TEST(ParaverRegistry, RoundTripThroughOtf2Lulesh) {
  expectOtf2RoundTrip(testing::kLulesh);
}

// What an OTF2 trace holds that the .prv must show: messages and calls.
struct Otf2Facts : TraceSink {
  const Definitions* defs = nullptr;
  std::unique_ptr<RankMap> ranks;
  std::map<uint64_t, uint32_t> taskOfGroup;
  std::multiset<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>>
      messages;  // from, to, size, tag
  uint64_t calls = 0;
  void begin(const Definitions& d) override {
    defs = &d;
    ranks = std::make_unique<RankMap>(d);
    for (const LocationView& l : d.locations())
      taskOfGroup.emplace(l.group, static_cast<uint32_t>(taskOfGroup.size() + 1));
  }
  uint32_t taskOf(LocationId location) const {
    for (const LocationView& l : defs->locations())
      if (l.id == location) return taskOfGroup.at(l.group);
    return 0;
  }
  void event(const Event& e) override {
    if (e.kind == EventKind::Enter || e.kind == EventKind::Leave) ++calls;
    if (!isSend(e.kind)) return;
    const LocationId to = ranks->locationOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
    messages.emplace(taskOf(e.location), taskOf(to), e.fields[3], e.fields[2]);
  }
  void end() override {}
};

void expectOtf2ToParaver(const std::string& trace) {
  TempDir dir;
  Otf2Facts facts;
  openTrace(trace, {})->read(facts);
  const std::string output = dir.file("x.prv");
  {
    ParaverWriter writer(output, {});
    openTrace(trace, {})->read(writer);
    for (const auto& [what, n] : writer.losses()) {
      EXPECT_EQ(what.find("partner"), std::string::npos) << trace << ": " << n << " " << what;
      EXPECT_EQ(what.find("peer"), std::string::npos) << trace << ": " << n << " " << what;
    }
  }
  std::multiset<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>> records;
  uint64_t callPairs = 0;
  for (const std::string& line : testing::sortedRecords(output)) {
    std::vector<uint64_t> f;
    for (size_t start = 0; start <= line.size();) {
      const size_t end = std::min(line.find(':', start), line.size());
      f.push_back(std::stoull(line.substr(start, end - start)));
      start = end + 1;
    }
    if (f[0] == 3) records.emplace(f[3], f[9], f[13], f[14]);
    if (f[0] == 2)
      for (size_t i = 6; i + 1 < f.size(); i += 2)
        callPairs += isMpiCallType(f[i]) || f[i] == kUserFunctionType;
  }
  EXPECT_EQ(records, facts.messages) << trace;
  EXPECT_EQ(callPairs, facts.calls) << trace;
  // Read back: the .prv is valid for the reader.
  CollectSink back;
  ParaverReader reader(output, {});
  reader.read(back);
  EXPECT_EQ(back.count(EventKind::MpiSend), facts.messages.size());
}

TEST(ParaverRegistry, Otf2PingPongToParaver) {
  expectOtf2ToParaver(MTF_DATA_DIR "/otf2/pipit-ping-pong/traces.otf2");
}
TEST(ParaverRegistry, Otf2PingPongPapiToParaver) {
  expectOtf2ToParaver(MTF_DATA_DIR "/otf2/pipit-ping-pong-papi/traces.otf2");
}
TEST(ParaverRegistry, Otf2SstMacroToParaver) {
  expectOtf2ToParaver(MTF_DATA_DIR "/otf2/sst-macro-mpi/traces.otf2");
}
TEST(ParaverRegistry, Otf2HipToParaver) {
  expectOtf2ToParaver(MTF_DATA_DIR "/otf2/fastotf2-mi300/traces.otf2");
}

}  // namespace
}  // namespace mtf::paraver
