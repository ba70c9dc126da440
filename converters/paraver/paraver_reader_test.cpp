#include "converters/paraver/paraver_reader.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <map>
#include <set>

#include "converters/paraver/extrae.hpp"
#include "converters/paraver/fields.hpp"
#include "converters/paraver/header.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "util/error.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

TEST(ParaverHeader, OldHeaderWithoutUnitIsMicroseconds) {
  const Header h = parseHeader("#Paraver (26/01/04 at 16:35):260199:4:1:4(1:1,1:2,1:3,1:4),8", "t");
  EXPECT_EQ(h.date, "26/01/04 at 16:35");
  EXPECT_EQ(h.endTime, 260199u);
  EXPECT_EQ(h.unit, "");
  EXPECT_EQ(h.resolution, 1'000'000u);
  EXPECT_EQ(h.nodes, 4u);
  ASSERT_EQ(h.applications.size(), 1u);
  EXPECT_EQ(h.applications[0].tasks.size(), 4u);
  EXPECT_EQ(h.applications[0].tasks[3].node, 4u);
  EXPECT_EQ(h.communicatorCount, 8u);
  EXPECT_EQ(h.threadCount(), 4u);
}

TEST(ParaverHeader, SeveralApplicationsCpusAndLongDate) {
  const std::string line =
      "#Paraver (21/01/2022 at 16:37):1616378951_ns:1(20):2:2(1:1,3:1),1(2:1),14";
  const Header h = parseHeader(line, "t");
  EXPECT_EQ(h.resolution, 1'000'000'000u);
  EXPECT_EQ(h.cpusPerNode, std::vector<uint32_t>{20});
  ASSERT_EQ(h.applications.size(), 2u);
  EXPECT_EQ(h.threadCount(), 6u);
  EXPECT_EQ(h.locationOf(1, 2, 3), 3u);
  EXPECT_EQ(h.locationOf(2, 1, 2), 5u);
  EXPECT_EQ(h.locationOf(2, 2, 1), kUndefinedId);
  EXPECT_EQ(h.globalTaskOf(2, 1), 2u);
  EXPECT_EQ(formatHeader(h), line);
}

TEST(ParaverHeader, NoResourcesAndOtherUnits) {
  Header h = parseHeader("#Paraver (01/02/2023 at 10:00):1000_us:0:1:2(2:1,1:1)", "t");
  EXPECT_FALSE(h.hasResources);
  EXPECT_EQ(h.threadCount(), 3u);
  EXPECT_EQ(h.communicatorCount, 0u);
  EXPECT_EQ(parseHeader("#Paraver (01/02/2023 at 10:00):7_ms:2:1:1(1:2)", "t").resolution, 1000u);
  EXPECT_EQ(formatHeader(h), "#Paraver (01/02/2023 at 10:00):1000_us:0:1:2(2:1,1:1)");
}

TEST(ParaverHeader, MalformedHeadersNameLineOne) {
  const char* bad[] = {"#Paraver (01/02/23 at 10:00):abc:0:1:1(1:1)",
                       "#Paraver (01/02/23 at 10:00):10:0:1:1(1:1",
                       "#Paraver (01/02/23 at 10:00:10:0:1:1(1:1)",
                       "#Paraver (01/02/23 at 10:00):10:2(4):1:1(1:1)",
                       "#Paraver (01/02/23 at 10:00):10:1:1:1(1:5)",
                       "#Paraver (01/02/23 at 10:00):10:0:0",
                       "Paraver 10:0:1:1(1:1)"};
  for (const char* line : bad) {
    try {
      parseHeader(line, "x.prv");
      ADD_FAILURE() << "accepted " << line;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("x.prv: line 1"), std::string::npos) << e.what();
    }
  }
}

// A few header bytes may declare a million threads per task; the total over every
// application and task is bounded (each thread becomes a location).
TEST(ParaverHeader, ThreadsOfAllApplicationsTogetherAreBounded) {
  EXPECT_EQ(parseHeader("#Paraver (d):10:0:1:1(1000000:0)", "x.prv").threadCount(), 1000000u);
  try {
    parseHeader("#Paraver (d):10:0:2:1(1000000:0):1(1:0)", "x.prv");
    ADD_FAILURE() << "accepted 1000001 threads";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000000 threads"), std::string::npos)
        << e.what();
  }
}

// A bare node count (no cpu list) costs nothing to write: at most one node per thread.
TEST(ParaverHeader, NodesWithoutCpuListAreBoundedByThreads) {
  EXPECT_EQ(parseHeader("#Paraver (d):10:2:1:2(2:1,1:2)", "x.prv").nodes, 2u);
  EXPECT_EQ(parseHeader("#Paraver (d):10:4:1:1(1:4)", "x.prv").nodes, 4u);  // nodes 1-3 idle
  try {
    parseHeader("#Paraver ():0:955445:1:1(1:1)", "x.prv");
    ADD_FAILURE() << "accepted 955445 nodes for 1 thread";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("955445 nodes without a cpu list for 1 threads"),
              std::string::npos)
        << e.what();
  }
}

void expectCountsMatchFile(const std::string& path) {
  ParaverReader reader(path, {});
  CollectSink sink;
  reader.read(sink);
  const std::string plain = path.ends_with(".gz") ? path.substr(0, path.size() - 3) : path;
  const testing::FileCounts file = testing::countFile(plain);
  const RecordCounts& counts = reader.counts();
  EXPECT_EQ(counts.states, file.records.count('1') ? file.records.at('1') : 0);
  EXPECT_EQ(counts.eventLines, file.records.count('2') ? file.records.at('2') : 0);
  EXPECT_EQ(counts.eventPairs, file.pairs);
  EXPECT_EQ(counts.communications, file.records.count('3') ? file.records.at('3') : 0);
  EXPECT_EQ(counts.globalOps, file.records.count('4') ? file.records.at('4') : 0);
  // The relation between records and model events, kind by kind.
  EXPECT_EQ(sink.count(EventKind::State), counts.states);
  EXPECT_EQ(sink.count(EventKind::Enter) + sink.count(EventKind::Leave) +
                sink.count(EventKind::Metric) + sink.count(EventKind::Generic),
            counts.eventPairs);
  EXPECT_EQ(sink.count(EventKind::MpiSend), counts.communications);
  EXPECT_EQ(sink.count(EventKind::MpiRecv), counts.communications);
  EXPECT_EQ(sink.count(EventKind::MpiCollectiveBegin), counts.globalOps);
  EXPECT_EQ(sink.count(EventKind::MpiCollectiveEnd), counts.globalOps);
  EXPECT_EQ(sink.events.size(), counts.modelEvents());
  EXPECT_EQ(reader.inputRecords().at("state records"), counts.states);
  EXPECT_TRUE(sink.began && sink.ended);
}

TEST(ParaverReader, RecordsAddUpToModelEventsLulesh) {
  expectCountsMatchFile(testing::kLulesh);
}
TEST(ParaverReader, RecordsAddUpToModelEventsQsort) {
  expectCountsMatchFile(testing::kQsort);
}
TEST(ParaverReader, RecordsAddUpToModelEventsQsortGz) {
  expectCountsMatchFile(testing::kQsortGz);
}

TEST(ParaverReader, GzipGivesTheSameEventsAsPlain) {
  CollectSink plain, gz;
  ParaverReader(testing::kQsort, {}).read(plain);
  ParaverReader(testing::kQsortGz, {}).read(gz);
  ASSERT_EQ(plain.events.size(), gz.events.size());
  EXPECT_TRUE(plain.events == gz.events);
}

TEST(ParaverReader, EachLocationIsInTimeOrder) {
  for (const std::string& path : {testing::kLulesh, testing::kQsort}) {
    CollectSink sink;
    ParaverReader(path, {}).read(sink);
    std::map<LocationId, Tick> last;
    for (const Event& e : sink.events) {
      EXPECT_GE(e.time, last[e.location]) << path << " location " << e.location;
      last[e.location] = e.time;
    }
  }
}

TEST(ParaverReader, DefinitionsFromHeaderPcfAndRow) {
  ParaverReader reader(testing::kLulesh, {});
  const Definitions& defs = reader.definitions();
  EXPECT_EQ(defs.info.format, "paraver");
  EXPECT_EQ(defs.clock.resolution, 1'000'000'000u);
  EXPECT_EQ(defs.clock.traceLength, 1616378951u);
  const auto locations = defs.locations();
  ASSERT_EQ(locations.size(), 20u);
  EXPECT_EQ(locations[8].name, "THREAD 2.1.1");  // from the .row
  EXPECT_EQ(defs.count(DefKind::LocationGroup), 20u);
  // The world + the 9 communicator lines whose tasks exist in application 1 (the other 5
  // name tasks 9..12, beyond its 8: they are kept only in the properties).
  EXPECT_EQ(defs.count(DefKind::Comm), 10u);
  EXPECT_EQ(std::count(defs.info.properties.at("paraver.communicators").begin(),
                       defs.info.properties.at("paraver.communicators").end(), '\n'),
            14);
  bool allreduce = false;
  for (const DefRecord& r : defs.records())
    if (r.kind == DefKind::Region &&
        defs.regionName(static_cast<Ref>(r.fields[0])) == "MPI_Allreduce")
      allreduce = defs.region(static_cast<Ref>(r.fields[0])).paradigm == Paradigm::Mpi;
  EXPECT_TRUE(allreduce);
  EXPECT_EQ(defs.count(DefKind::MetricClass), 3u);  // PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_REF_CYC
  EXPECT_TRUE(defs.info.properties.count("paraver.pcf"));
  EXPECT_TRUE(defs.info.properties.count("paraver.row"));
  EXPECT_NE(defs.info.properties.at("paraver.comments").find("CUTTER"), std::string::npos);
  EXPECT_TRUE(reader.warnings().empty());
}

// MPItrace's global-op ids (Dimemas' numbering) become OTF2 collective ops: in qsort the
// records inside MPI_Bcast, MPI_Reduce and MPI_Allreduce carry 1, 10 and 11, which are
// OTF2's Bcast (1), Reduce (12) and Allreduce (11); the raw id stays an attribute.
TEST(ParaverReader, QsortGlobalOpsAreOtf2CollectiveOps) {
  ParaverReader reader(testing::kQsort, {});
  CollectSink sink;
  reader.read(sink);
  const Definitions& defs = reader.definitions();
  std::map<LocationId, std::string> openCall;
  std::map<std::string, std::set<uint64_t>> opsByCall;
  for (const Event& e : sink.events) {
    if (e.kind == EventKind::Enter)
      openCall[e.location] = std::string(defs.regionName(static_cast<Ref>(e.fields[0])));
    if (e.kind == EventKind::MpiCollectiveEnd) opsByCall[openCall[e.location]].insert(e.fields[0]);
  }
  const std::map<std::string, std::set<uint64_t>> expected = {
      {"MPI_Bcast", {1}}, {"MPI_Reduce", {12}}, {"MPI_Allreduce", {11}}};
  EXPECT_EQ(opsByCall, expected);
}

TEST(ParaverReader, QsortCallsAndFunctionsAreRegions) {
  ParaverReader reader(testing::kQsort, {});
  CollectSink sink;
  reader.read(sink);
  const Definitions& defs = reader.definitions();
  std::map<std::string, uint64_t> enters;
  for (const Event& e : sink.events)
    if (e.kind == EventKind::Enter)
      ++enters[std::string(defs.regionName(static_cast<Ref>(e.fields[0])))];
  EXPECT_EQ(enters["MPI_Init"], 4u);
  EXPECT_GT(enters["MPI_Send"], 0u);
  EXPECT_GT(enters["division (qsort_jenui.c)"], 0u);
  // MPItrace switches from one collective to the next without a 0 in between, so calls
  // nest rather than balance: every non-zero call value is an Enter, every 0 a Leave.
  uint64_t nonZero = 0, zero = 0;
  for (const std::string& line : testing::sortedRecords(testing::kQsort)) {
    if (line[0] != '2') continue;
    const std::string pair = line.substr(
        line.find(
            ':',
            line.find(':', line.find(':', line.find(':', line.find(':', 2) + 1) + 1) + 1) + 1) +
        1);
    const uint64_t type = std::stoull(pair.substr(0, pair.find(':')));
    // MPI calls, user functions, and the begin/end types of the .pcf's "0 End" block.
    const bool beginEnd = (type >= 50000001 && type <= 50000005) || type == 60000019 ||
                          type == 40000001 || (type >= 40000003 && type <= 40000005);
    if (!beginEnd) continue;
    (std::stoll(pair.substr(pair.find(':') + 1)) == 0 ? zero : nonZero) += 1;
  }
  EXPECT_EQ(sink.count(EventKind::Enter), nonZero - reader.counts().unnamedValues);
  EXPECT_EQ(sink.count(EventKind::Leave), zero - reader.counts().unopenedLeaves);
  // The first communication: task 2 sends 32 bytes with tag 11 to task 1.
  const auto send = std::find_if(sink.events.begin(), sink.events.end(),
                                 [](const Event& e) { return e.kind == EventKind::MpiSend; });
  ASSERT_NE(send, sink.events.end());
  EXPECT_EQ(send->location, 1u);
  // At the physical send time, the logical one as an attribute.
  EXPECT_EQ(send->time, 73236u);
  EXPECT_EQ(send->fields, (std::vector<uint64_t>{0, send->fields[1], 11, 32}));
  ASSERT_EQ(send->attributes.size(), 1u);
  EXPECT_EQ(send->attributes[0].value, 73135u);
  const auto recv = std::find_if(sink.events.begin(), sink.events.end(),
                                 [](const Event& e) { return e.kind == EventKind::MpiRecv; });
  ASSERT_NE(recv, sink.events.end());
  EXPECT_EQ(recv->location, 0u);
  EXPECT_EQ(recv->time, 73639u);
  EXPECT_TRUE(reader.warnings().size() == 1);  // no .row
}

// Issue 28: every Extrae begin/end type the .pcf declares (0 labelled End, Outside,
// close...) is regions; sampling, caller and "line and file" types, and types whose 0
// means something else, stay Generic; a value the .pcf does not name stays Generic and
// its 0 closes it, not an outer value of the type.
TEST(ParaverReader, ExtraeBeginEndTypesOfThePcfAreRegions) {
  TempDir dir;
  dir.write("t.prv",
            "#Paraver (01/02/2023 at 10:00):1000_ns:1(1):1:1(1:1)\n"
            "2:1:1:1:1:10:60000001:3:60000118:5\n"
            "2:1:1:1:1:15:60000025:1\n"
            "2:1:1:1:1:20:60000025:9\n"
            "2:1:1:1:1:30:60000025:0\n"
            "2:1:1:1:1:35:60000025:0\n"
            "2:1:1:1:1:40:30000000:3:40000012:1\n"
            "2:1:1:1:1:50:60000001:0:60000118:0\n");
  dir.write("t.pcf",
            "EVENT_TYPE\n0 60000001 Parallel (OMP)\nVALUES\n0 close\n1 DO (open)\n"
            "3 REGION (open)\n\n"
            "EVENT_TYPE\n0 60000118 Executed OpenMP parallel function line and file\n"
            "VALUES\n0 End\n5 0 (a.c, a)\n\n"
            "EVENT_TYPE\n0 30000000 Sampled functions\nVALUES\n0 End\n3 f\n\n"
            "EVENT_TYPE\n0 60000025 Taskgroup calls\nVALUES\n0 Outside\n1 Start\n2 End\n\n"
            "EVENT_TYPE\n6 40000012 Tracing\nVALUES\n0 Disabled\n1 Enabled\n");
  ParaverReader reader(dir.file("t.prv"), {});
  CollectSink sink;
  reader.read(sink);
  const Definitions& defs = reader.definitions();
  std::vector<std::string> seen;
  for (const Event& e : sink.events) {
    std::string text = std::to_string(e.time) + " " + std::string(nameOf(e.kind));
    if (e.kind == EventKind::Enter || e.kind == EventKind::Leave)
      text += " " + std::string(defs.regionName(static_cast<Ref>(e.fields[0])));
    else if (e.kind == EventKind::Generic)
      text += " " + std::to_string(e.fields[0]) + ":" + std::to_string(asSigned(e.fields[1]));
    seen.push_back(text);
  }
  const std::vector<std::string> expected = {"10 Enter Parallel (OMP): REGION (open)",
                                             "10 Generic 60000118:5",
                                             "15 Enter Taskgroup calls: Start",
                                             "20 Generic 60000025:9",
                                             "30 Generic 60000025:0",
                                             "35 Leave Taskgroup calls: Start",
                                             "40 Generic 30000000:3",
                                             "40 Generic 40000012:1",
                                             "50 Leave Parallel (OMP): REGION (open)",
                                             "50 Generic 60000118:0"};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(reader.counts().unnamedValues, 1u);
  EXPECT_EQ(reader.counts().unopenedLeaves, 0u);
}

TEST(ExtraeTypes, BeginEndRuleFollowsTheLabelOfZero) {
  EXPECT_TRUE(isBeginEndType(60000002, "Worksharing (OMP)", "End", 3));
  EXPECT_TRUE(isBeginEndType(8000001, "Runtime", "End", 45));
  EXPECT_TRUE(isBeginEndType(61000000, "pthread call", "Outside pthread call", 1));
  EXPECT_TRUE(isBeginEndType(50000001, "MPI Point-to-point", "", 0));  // always
  EXPECT_FALSE(isBeginEndType(60000007, "OpenMP unnamed-Lock", "Unlocked status", 3));
  EXPECT_FALSE(isBeginEndType(60000002, "Worksharing (OMP)", "End", 0));  // no other value
  EXPECT_FALSE(isBeginEndType(30000001, "Sampled functions (depth 1)", "End", 16));
  EXPECT_FALSE(isBeginEndType(70000002, "Caller at level 2", "End", 16));
  EXPECT_FALSE(isBeginEndType(60000120, "pthread function line and file", "End", 13));
  // Extrae 2's label (BSC folding's 444.namd example): the same companion.
  EXPECT_FALSE(isBeginEndType(60000119, "User function line", "End", 27));
  EXPECT_TRUE(isBeginEndType(60000099, "Outline", "End", 2));  // a word ending "line"
  EXPECT_FALSE(isBeginEndType(60000027, "Within Taskgroup region", "End", 1));
  EXPECT_FALSE(isBeginEndType(42000050, "PAPI_TOT_INS", "End", 1));
}

TEST(ParaverReader, MissingPcfIsAWarningAndValuesStayGeneric) {
  TempDir dir;
  std::filesystem::copy_file(testing::kQsort, dir.file("t.prv"));
  ParaverReader reader(dir.file("t.prv"), {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(reader.warnings().size(), 2u);
  EXPECT_EQ(sink.count(EventKind::Enter), 0u);
  EXPECT_EQ(sink.count(EventKind::Generic), reader.counts().eventPairs);
}

// Reads a trace of one thread with these records and this .pcf; `tolerated` gets the count
// of records skipped with a warning.
CollectSink readOneThread(const std::string& records, const std::string& pcf,
                          uint64_t* tolerated = nullptr) {
  TempDir dir;
  dir.write("t.prv", "#Paraver (01/02/2023 at 10:00):1000_ns:1(1):1:1(1:1)\n" + records);
  dir.write("t.pcf", pcf);
  ParaverReader reader(dir.file("t.prv"), {});
  CollectSink sink;
  reader.read(sink);
  if (tolerated) *tolerated = reader.counts().tolerated;
  return sink;
}

TEST(ParaverReader, NegativeCounterValuesStayMetricValues) {
  const CollectSink sink =
      readOneThread("2:1:1:1:1:10:42000050:7:42000051:-1\n",
                    "EVENT_TYPE\n0 42000050 PAPI_TOT_INS\n0 42000051 signed metric\n");
  ASSERT_EQ(sink.count(EventKind::Metric), 2u);
  EXPECT_EQ(sink.count(EventKind::Generic), 0u);
  EXPECT_EQ(sink.events[0].fields[2], kTypeUint64);
  EXPECT_EQ(sink.events[0].fields[3], 7u);
  EXPECT_EQ(sink.events[1].fields[2], kTypeInt64);  // paraver-kernel's values are signed
  EXPECT_EQ(static_cast<int64_t>(sink.events[1].fields[3]), -1);
}

// Extrae writes event values unsigned (PyPOP's ImageMagick traces hold PAPI_L3_TCM values
// such as 9223512060668553767, uninitialised counters); paraver-kernel reads them as the
// same 64 bits. A counter's stays a UINT64 metric value, another type's keeps its bits.
TEST(ParaverReader, ValuesAboveInt64MaxKeepTheir64Bits) {
  uint64_t tolerated = 1;
  const CollectSink sink = readOneThread(
      "2:1:1:1:1:10:42000008:9223512060668553767:40000001:18446744073709551615\n"
      "2:1:1:1:1:20:40000001:-9223372036854775808\n",
      "EVENT_TYPE\n7 42000008 PAPI_L3_TCM [L3 cache misses]\n", &tolerated);
  EXPECT_EQ(tolerated, 0u);
  ASSERT_EQ(sink.events.size(), 3u);
  EXPECT_EQ(sink.events[0].kind, EventKind::Metric);
  EXPECT_EQ(sink.events[0].fields[2], kTypeUint64);
  EXPECT_EQ(sink.events[0].fields[3], 9223512060668553767ull);
  EXPECT_EQ(sink.events[1].kind, EventKind::Generic);
  EXPECT_EQ(static_cast<int64_t>(sink.events[1].fields[1]), -1);  // as paraver-kernel reads it
  EXPECT_EQ(sink.events[2].fields[1], uint64_t{1} << 63);
}

// Writes a small trace with one bad line and returns the error of reading it.
std::string errorOf(const TempDir& dir, const std::string& records, bool lenient = false,
                    LossReport* losses = nullptr) {
  dir.write("bad.prv", "#Paraver (01/02/2023 at 10:00):1000_us:1(2):1:2(1:1,1:1)\n" + records);
  ParaverReader reader(dir.file("bad.prv"), ReadOptions{lenient, false});
  CollectSink sink;
  try {
    reader.read(sink);
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.what();
  }
  if (losses) *losses = reader.unmodelled();
  return "";
}

TEST(ParaverReader, BadRecordsNameFileAndLine) {
  TempDir dir;
  const std::string good = "1:1:1:1:1:0:10:1\n";
  const std::pair<std::string, std::string> cases[] = {
      {"1:1:1:1:1:0:10\n", "missing"},               // a missing field
      {"2:1:1:1:1:5:5000000x:1\n", "non-numeric"},   // a non-numeric field
      {"7:1:1:1:1:5:1\n", "unknown record type"},    // an unknown record type
      {"1:1:1:3:1:0:10:1\n", "range"},               // task out of the header's range
      {"2:1:1:1:1:5:40000001\n", "missing"},         // type without value
      {"3:1:1:1:1:5:5:2:1:2:1:9:9:8\n", "missing"},  // communication without tag
  };
  for (const auto& [line, what] : cases) {
    const std::string message = errorOf(dir, good + line);
    EXPECT_NE(message.find("bad.prv: line 3"), std::string::npos) << line << " -> " << message;
    EXPECT_NE(message.find(what), std::string::npos) << line << " -> " << message;
  }
  EXPECT_EQ(errorOf(dir, ""), "");  // a trace without records is fine
  EXPECT_EQ(errorOf(dir, good), "");
  // A CPU beyond the header is read (kept as it is) with a warning: kernel_rules_test.cpp.
  EXPECT_EQ(errorOf(dir, good + "1:9:1:1:1:0:10:1\n"), "");
}

// Receives wait on their location until the file reaches their time; thousands waiting
// and being delivered at once (the queue drops delivered entries as it goes) keep every
// receive, at its own time, in time order.
TEST(ParaverReader, ManyWaitingReceivesComeOutInTimeOrder) {
  TempDir dir;
  std::string prv = "#Paraver (01/02/2023 at 10:00):1000_us:1(2):1:2(1:1,1:1)\n";
  constexpr int kMessages = 3000;
  for (int i = 0; i < kMessages; ++i) {
    const int t = 10 * i;
    prv += "2:2:1:2:1:" + std::to_string(t) + ":40000001:1\n";  // task 2 moves on
    prv += "3:1:1:1:1:" + std::to_string(t) + ":" + std::to_string(t) +
           ":2:1:2:1:" + std::to_string(t + 5000) + ":" + std::to_string(t + 5000) + ":64:7\n";
  }
  dir.write("many.prv", prv);
  ParaverReader reader(dir.file("many.prv"), {});
  CollectSink sink;
  reader.read(sink);
  std::vector<Tick> receives;
  std::map<LocationId, Tick> last;
  for (const Event& e : sink.events) {
    EXPECT_GE(e.time, last[e.location]);
    last[e.location] = e.time;
    if (e.kind == EventKind::MpiRecv) receives.push_back(e.time);
  }
  ASSERT_EQ(receives.size(), size_t(kMessages));
  for (int i = 0; i < kMessages; ++i) EXPECT_EQ(receives[i], Tick(10 * i + 5000)) << i;
}

TEST(ParaverReader, LenientSkipsAndCountsBadRecords) {
  TempDir dir;
  LossReport losses;
  EXPECT_EQ(errorOf(dir, "1:1:1:1:1:0:10:1\nx:1\n1:1:1:1:1:0:10\n2:1:1:1:1:3:1:2\n", true, &losses),
            "");
  EXPECT_EQ(losses["Paraver bad records skipped (lenient)"], 2u);
}

TEST(ParaverReader, TruncatedGzipIsBadInput) {
  TempDir dir;
  std::ifstream in(testing::kQsortGz, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(dir.file("cut.prv.gz"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  ParaverReader reader(dir.file("cut.prv.gz"), {});
  CollectSink sink;
  try {
    reader.read(sink);
    FAIL() << "a truncated .gz was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cut.prv.gz: line"), std::string::npos) << e.what();
  }
}

TEST(ParaverReader, WrongHeaderIsBadInput) {
  TempDir dir;
  dir.write("h.prv", "#Paraver (01/02/2023 at 10:00):x:1:1:1(1:1)\n1:1:1:1:1:0:1:1\n");
  ParaverReader reader(dir.file("h.prv"), {});
  EXPECT_THROW(reader.definitions(), InputError);
  dir.write("c.prv", "#Paraver (01/02/2023 at 10:00):9:1:1:1(1:1),2\nc:1:1:1:1\n1:1:1:1:1:0:1:1\n");
  ParaverReader missingComm(dir.file("c.prv"), {});
  EXPECT_THROW(missingComm.definitions(), InputError);
}

TEST(ParaverReader, SniffsPlainAndGzip) {
  EXPECT_TRUE(looksLikeParaver(testing::kQsort));
  EXPECT_TRUE(looksLikeParaver(testing::kQsortGz));
  EXPECT_FALSE(looksLikeParaver(MTF_DATA_DIR "/paraver/paraver-kernel-qsort/qsort_beo3.pcf"));
  EXPECT_FALSE(looksLikeParaver(MTF_DATA_DIR "/paraver"));
}

}  // namespace
}  // namespace mtf::paraver

namespace mtf::paraver {
namespace {

TEST(FieldCursor, ParsesFieldsAndRejectsBadOnes) {
  FieldCursor c("12:18446744073709551615:-5:007");
  uint64_t u = 0;
  int64_t s = 0;
  EXPECT_TRUE(c.nextUnsigned(u) && u == 12);
  EXPECT_TRUE(c.nextUnsigned(u) && u == 18446744073709551615ull);
  EXPECT_TRUE(c.nextSigned(s) && s == -5);
  EXPECT_TRUE(c.nextUnsigned(u) && u == 7);
  EXPECT_TRUE(c.atEnd());
  EXPECT_FALSE(FieldCursor("18446744073709551616").nextUnsigned(u));  // overflow
  EXPECT_FALSE(FieldCursor("123456789012345678901").nextUnsigned(u));
  EXPECT_FALSE(FieldCursor("12a").nextUnsigned(u));
  EXPECT_FALSE(FieldCursor("").nextUnsigned(u));
  FieldCursor trailing("5:");
  EXPECT_TRUE(trailing.nextUnsigned(u));
  EXPECT_FALSE(trailing.atEnd());
  EXPECT_FALSE(trailing.nextUnsigned(u));  // the empty last field
  FieldCursor values("9223372036854775807:9223372036854775808:-9223372036854775808:x");
  bool unsignedForm = true;
  EXPECT_TRUE(values.nextEventValue(s, unsignedForm) && !unsignedForm);
  EXPECT_EQ(s, INT64_MAX);
  EXPECT_TRUE(values.nextEventValue(s, unsignedForm) && unsignedForm);
  EXPECT_EQ(s, INT64_MIN);
  EXPECT_TRUE(values.nextEventValue(s, unsignedForm) && !unsignedForm);
  EXPECT_EQ(s, INT64_MIN);
  EXPECT_FALSE(values.nextEventValue(s, unsignedForm));
  EXPECT_FALSE(values.overflowed());
  FieldCursor beyond("-9223372036854775809");
  EXPECT_FALSE(beyond.nextEventValue(s, unsignedForm));
  EXPECT_TRUE(beyond.overflowed());
}

}  // namespace
}  // namespace mtf::paraver
