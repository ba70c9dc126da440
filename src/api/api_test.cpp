// The public API (include/mtf/) against the `mtf` program's own analyses: every real
// trace, an .mtf archive made from the sample, filters, loops, patterns, errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

#include "../../tests/data/real_traces.hpp"
#include "mtf/mtf.hpp"

namespace fs = std::filesystem;
using namespace mtf::api;

namespace {

const std::string kSample = std::string(MTF_SOURCE_DIR) + "/samples/wavefront-4x10/traces.otf2";

std::map<std::string, uint64_t> countByKind(Trace& trace, const EventFilter& filter = {}) {
  std::map<std::string, uint64_t> counts;
  trace.events([&](const Event& e) { ++counts[std::string(eventKindName(e.kind))]; }, filter);
  return counts;
}

uint64_t total(const std::map<std::string, uint64_t>& counts) {
  uint64_t n = 0;
  for (const auto& [kind, count] : counts) n += count;
  return n;
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("mtf_api_test_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

class RealTraceApi : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceApi, EventsAgreeWithInfo) {
  Trace trace = Trace::open(std::string(MTF_DATA_DIR) + "/" + GetParam());
  const Info info = trace.info();
  ASSERT_GT(info.events, 0u);
  EXPECT_EQ(countByKind(trace), info.eventsByKind);
  EXPECT_EQ(trace.definitions().locations.size(), info.locations);
  EXPECT_EQ(trace.definitions().format, info.format);
}

TEST_P(RealTraceApi, OneLocationIsThatLocationsEvents) {
  Trace trace = Trace::open(std::string(MTF_DATA_DIR) + "/" + GetParam());
  std::map<LocationId, uint64_t> perLocation;
  trace.events([&](const Event& e) { ++perLocation[e.location]; });
  ASSERT_FALSE(perLocation.empty());
  const LocationId location = perLocation.rbegin()->first;  // a plain variable: lambdas
  const uint64_t count = perLocation.rbegin()->second;      // capture no structured binding
  EventFilter only;
  only.locations = {location};
  uint64_t seen = 0;
  trace.events(
      [&](const Event& e) {
        EXPECT_EQ(e.location, location);
        ++seen;
      },
      only);
  EXPECT_EQ(seen, count);
}

INSTANTIATE_TEST_SUITE_P(All, RealTraceApi, ::testing::ValuesIn(mtf::test::realTraces()),
                         [](const auto& info) {
                           return mtf::test::traceTestName(info.index, info.param);
                         });

// Reading only what is asked for: with location 3's event file damaged, the whole trace
// fails and location 0 alone still reads (its file is the only one opened).
TEST(Api, OneOtf2LocationReadsOnlyItsEventFile) {
  TempDir dir;
  fs::copy(fs::path(kSample).parent_path(), dir / "copy", fs::copy_options::recursive);
  const std::string copy = (dir / "copy" / "traces.otf2").string();
  fs::resize_file(dir / "copy" / "traces" / "3.evt", 7);
  Trace trace = Trace::open(copy);
  EXPECT_THROW(trace.events([](const Event&) {}), Error);
  EventFilter only;
  only.locations = {trace.definitions().locations[0].id};
  uint64_t events = 0;
  trace.events([&](const Event&) { ++events; }, only);
  EXPECT_EQ(events, 1604u);
}

TEST(Api, PartnersAreWorldRanksAndRegionsAreDefined) {
  Trace trace = Trace::open(kSample);
  const Definitions& defs = trace.definitions();
  ASSERT_EQ(defs.locations.size(), 4u);
  uint64_t sends = 0;
  trace.events([&](const Event& e) {
    if (e.kind == eventKindByName("Enter")) {
      EXPECT_NE(defs.region(e.region), nullptr);
    }
    if (e.kind != eventKindByName("MpiSend") || e.location != defs.locations[0].id) return;
    ++sends;
    EXPECT_TRUE(e.partner == 1 || e.partner == 2) << e.partner;
    EXPECT_GT(e.size, 0u);
    EXPECT_NE(defs.communicator(e.comm), nullptr);
  });
  EXPECT_EQ(sends, 160u);  // 10 iterations x 8 inner steps x 2 neighbours (mtf loops)
}

// The rows of eventRows() as events, and the block sizes seen.
std::vector<Event> rowsAsEvents(Trace& trace, const EventFilter& filter,
                                std::vector<size_t>& blocks) {
  std::vector<Event> events;
  trace.eventRows(
      [&](const EventRows& rows) {
        blocks.push_back(rows.count);
        for (size_t i = 0; i < rows.count; ++i)
          events.push_back(Event{rows.location[i],
                                 rows.time[i],
                                 rows.kind[i],
                                 rows.region[i],
                                 rows.partner[i],
                                 rows.tag[i],
                                 rows.size[i],
                                 rows.comm[i],
                                 {}});
      },
      filter);
  return events;
}

void expectSameRows(const std::vector<Event>& a, const std::vector<Event>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const auto key = [](const Event& e) {
      return std::tuple(e.location, e.time, e.kind, e.region, e.partner, e.tag, e.size, e.comm);
    };
    ASSERT_EQ(key(a[i]), key(b[i])) << "row " << i;
  }
}

// eventRows() hands the events of events(), in the same order, in full blocks of 4,096
// rows but the last; the filter applies the same way. On the OTF2 sample and its archive.
TEST(Api, EventRowsAreTheEventsInBlocks) {
  TempDir dir;
  const std::string archive = (dir / "sample.mtf").string();
  convert(kSample, archive);
  for (const std::string& path : {kSample, archive}) {
    Trace trace = Trace::open(path);
    std::vector<Event> all;
    trace.events([&](const Event& e) { all.push_back(e); });
    ASSERT_GE(all.size(), 6000u) << path;
    EventFilter window;  // the later half of location 0's events
    window.from = all[all.size() / 8].time;
    EventFilter oneLocation;
    oneLocation.locations = {trace.definitions().locations[1].id};
    for (const EventFilter& filter : {EventFilter{}, window, oneLocation}) {
      std::vector<Event> expected;
      trace.events([&](const Event& e) { expected.push_back(e); }, filter);
      std::vector<size_t> blocks;
      expectSameRows(rowsAsEvents(trace, filter, blocks), expected);
      ASSERT_FALSE(blocks.empty()) << path;
      for (size_t b = 0; b + 1 < blocks.size(); ++b) EXPECT_EQ(blocks[b], 4096u);
      EXPECT_GT(blocks.back(), 0u);
    }
    std::vector<size_t> blocks;
    rowsAsEvents(trace, {}, blocks);
    EXPECT_GE(blocks.size(), 2u) << path;
  }
}

// The rows of eventRowsOnThreads() put in their places (blocks may come from several
// threads at once); fails on a block out of range, a row written twice or never.
std::vector<Event> placedRowsAsEvents(Trace& trace, const EventFilter& filter, size_t threads,
                                      uint64_t rowCount) {
  std::vector<Event> events(rowCount);
  std::vector<bool> written(rowCount);
  std::mutex mutex;
  trace.eventRowsOnThreads(
      [&](uint64_t first, const EventRows& rows) {
        std::lock_guard lock(mutex);
        ASSERT_LE(first + rows.count, rowCount);
        for (size_t i = 0; i < rows.count; ++i) {
          ASSERT_FALSE(written[first + i]) << "row " << first + i << " twice";
          written[first + i] = true;
          events[first + i] = Event{rows.location[i], rows.time[i],    rows.kind[i],
                                    rows.region[i],   rows.partner[i], rows.tag[i],
                                    rows.size[i],     rows.comm[i],    {}};
        }
      },
      filter, threads);
  for (uint64_t row = 0; row < rowCount; ++row) EXPECT_TRUE(written[row]) << "row " << row;
  return events;
}

// eventRowsOnThreads() places the rows of eventRows() where eventRows() hands them, on 1
// to 4 threads; eventCount() knows how many on an archive without a time window only.
TEST(Api, EventRowsOnThreadsArePlacedAsEventRowsHandsThem) {
  TempDir dir;
  const std::string archive = (dir / "sample.mtf").string();
  convert(kSample, archive);
  Trace otf2 = Trace::open(kSample);
  Trace mtf = Trace::open(archive);
  ASSERT_GE(mtf.definitions().locations.size(), 3u);
  EventFilter twoLocations;
  twoLocations.locations = {mtf.definitions().locations[2].id, mtf.definitions().locations[0].id};
  EventFilter window;
  window.from = mtf.info().firstTimestamp + 1;
  for (const auto& [filter, counted] :
       {std::pair(EventFilter{}, true), std::pair(twoLocations, true), std::pair(window, false)}) {
    std::vector<size_t> blocks;
    const std::vector<Event> expected = rowsAsEvents(mtf, filter, blocks);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(mtf.eventCount(filter),
              counted ? std::optional<uint64_t>(expected.size()) : std::optional<uint64_t>());
    for (size_t threads : {1, 2, 3, 4})
      expectSameRows(placedRowsAsEvents(mtf, filter, threads, expected.size()), expected);
  }
  EXPECT_FALSE(otf2.eventCount().has_value());
  std::vector<size_t> blocks;
  const std::vector<Event> expected = rowsAsEvents(otf2, {}, blocks);
  expectSameRows(placedRowsAsEvents(otf2, {}, 2, expected.size()), expected);
}

// eventRowsOnThreads() after eventCount() reads the archive that was counted (their
// reader is one): its rows, even when another archive has replaced the file since.
TEST(Api, EventRowsOnThreadsReadTheArchiveEventCountCounted) {
  TempDir dir;
  const std::string archive = (dir / "sample.mtf").string();
  const std::string other = (dir / "other.mtf").string();
  convert(kSample, archive);
  convert(std::string(MTF_SOURCE_DIR) + "/tests/data/otf2/pipit-ping-pong/traces.otf2", other);
  Trace mtf = Trace::open(archive);
  std::vector<size_t> blocks;
  const std::vector<Event> expected = rowsAsEvents(mtf, {}, blocks);
  ASSERT_EQ(mtf.eventCount(), std::optional<uint64_t>(expected.size()));
  fs::rename(other, archive);
  expectSameRows(placedRowsAsEvents(mtf, {}, 2, expected.size()), expected);
  // Taken by that call: the next count reads the file as it is now.
  EXPECT_NE(mtf.eventCount(), std::optional<uint64_t>(expected.size()));
}

TEST(Api, ArchiveEventsWindowLoopsAndStats) {
  TempDir dir;
  const std::string archive = (dir / "sample.mtf").string();
  const ConvertResult converted = convert(kSample, archive);
  Trace otf2 = Trace::open(kSample);
  Trace mtf = Trace::open(archive);
  EXPECT_EQ(mtf.format(), "mtf");
  const auto counts = countByKind(otf2);
  EXPECT_EQ(converted.events, total(counts));
  EXPECT_EQ(countByKind(mtf), counts);
  EXPECT_EQ(mtf.eventCountHint(), total(counts));

  // A window in the middle: the archive (read through its index) and the OTF2 trace
  // (read whole, filtered) select the same events.
  const Info info = otf2.info();
  EventFilter window;
  window.from = info.firstTimestamp + (info.lastTimestamp - info.firstTimestamp) / 3;
  window.to = info.firstTimestamp + (info.lastTimestamp - info.firstTimestamp) / 2;
  const auto inWindow = countByKind(otf2, window);
  EXPECT_GT(total(inWindow), 0u);
  EXPECT_LT(total(inWindow), total(counts));
  EXPECT_EQ(countByKind(mtf, window), inWindow);

  // Stored loops (read from the archive) stand for every event of their location, as
  // `mtf loops` prints them on an .mtf; NLR on the OTF2 trace takes MPI events only. Both
  // find the 10 iterations.
  std::map<LocationId, uint64_t> perLocation;
  mtf.events([&](const Event& e) { ++perLocation[e.location]; });
  const auto stored = mtf.loops();
  const auto computed = otf2.loops();
  ASSERT_EQ(stored.size(), 4u);
  ASSERT_EQ(computed.size(), 4u);
  for (size_t i = 0; i < stored.size(); ++i) {
    EXPECT_EQ(stored[i].events, perLocation[stored[i].location]);
    EXPECT_LT(computed[i].events, stored[i].events);
    EXPECT_NE(stored[i].text.find("for i0 = 1 to 10\n"), std::string::npos);
    EXPECT_NE(computed[i].text.find("for i0 = 1 to 10\n"), std::string::npos);
  }
  EXPECT_EQ(otf2.loops(computed[1].location).at(0).text, computed[1].text);
  const auto& program = computed[0].program;
  ASSERT_GE(program.size(), 2u);
  EXPECT_TRUE(program[1].loop);
  EXPECT_EQ(program[1].iterations, 10u);

  EXPECT_EQ(mtf.stats().total.events, total(counts));
  EXPECT_TRUE(mtf.stats().sizesFromFile);
  EXPECT_EQ(otf2.stats().total.dagNodes, mtf.stats().total.dagNodes);
}

TEST(Api, DagOfTheTraceAndOfItsArchive) {
  TempDir dir;
  const std::string archive = (dir / "sample.mtf").string();
  convert(kSample, archive);
  Trace otf2 = Trace::open(kSample);
  Trace mtf = Trace::open(archive);
  const Dag a = otf2.dag();
  const Dag b = mtf.dag();
  ASSERT_EQ(a.roots.size(), 4u);
  uint64_t events = 0;
  for (const auto& [location, root] : a.roots) {
    ASSERT_LT(root, a.nodes.size());
    EXPECT_EQ(a.nodes[root].kind, "sequence");
    events += a.nodes[root].eventCount;
  }
  EXPECT_EQ(events, otf2.info().events);
  EXPECT_EQ(a.nodes.size(), b.nodes.size());
  EXPECT_GE(a.nodes.size(), otf2.stats().total.dagNodes);
  bool main = false;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].label, b.nodes[i].label);
    main |= a.nodes[i].kind == "call" && a.nodes[i].label == "main";
    for (const DagEdge& e : a.nodes[i].edges) EXPECT_LT(e.child, i);  // children first
  }
  EXPECT_TRUE(main);
}

TEST(Api, PatternsNameTheWavefront) {
  Trace trace = Trace::open(kSample);
  const Patterns p = trace.patterns();
  EXPECT_EQ(p.processes, 4u);
  bool wavefront = false;
  for (const KnownPattern& k : p.known) wavefront |= k.name == "wavefront";
  EXPECT_TRUE(wavefront);
  EXPECT_NE(p.json.find("known_patterns"), std::string::npos);
}

// convert() with a cut (issue 31, part A): a time window keeps the window's events (calls
// open at its start entered again, those open at its end left: every Enter has its
// Leave) from the trace and from its archive alike; iterations of the sample's loop keep
// that many iterations of every rank; a bad cut is error 2 and writes nothing.
TEST(Api, ConvertCutsATimeWindowOrLoopIterations) {
  TempDir dir;
  Trace otf2 = Trace::open(kSample);
  const Info info = otf2.info();
  EventFilter window;
  window.from = info.firstTimestamp + (info.lastTimestamp - info.firstTimestamp) / 3;
  window.to = info.firstTimestamp + (info.lastTimestamp - info.firstTimestamp) / 2;
  auto inside = countByKind(otf2, window);  // [from, to], inclusive
  ConvertOptions cut;
  cut.begin = std::to_string(window.from) + "t";
  cut.end = std::to_string(window.to + 1) + "t";
  const ConvertResult result = convert(kSample, (dir / "cut.mtf").string(), cut);
  Trace cutTrace = Trace::open((dir / "cut.mtf").string());
  auto got = countByKind(cutTrace);
  EXPECT_EQ(result.events, total(got));
  EXPECT_EQ(got["Enter"], got["Leave"]);
  EXPECT_GE(got["Enter"], inside["Enter"]);
  for (const char* call : {"Enter", "Leave", "MpiCollectiveBegin"})
    got.erase(call), inside.erase(call);
  EXPECT_EQ(got, inside);

  const std::string archive = (dir / "sample.mtf").string();
  convert(kSample, archive);
  convert(archive, (dir / "cut2.mtf").string(), cut);
  Trace fromArchive = Trace::open((dir / "cut2.mtf").string());
  EXPECT_EQ(countByKind(fromArchive), countByKind(cutTrace));

  ConvertOptions iterations;
  iterations.construct = "2";  // the sample's loop of 10 iterations (mtf model --positions)
  iterations.iterations = "4-5";
  convert(kSample, (dir / "it.mtf").string(), iterations);
  Trace it = Trace::open((dir / "it.mtf").string());
  uint32_t iteration = kNoRef;  // the generator's region around each iteration
  for (const Region& r : it.definitions().regions)
    if (r.name == "iteration") iteration = r.id;
  std::map<LocationId, uint64_t> iterationsOf;
  it.events([&](const Event& e) {
    if (e.region == iteration && e.kind == eventKindByName("Enter")) ++iterationsOf[e.location];
  });
  EXPECT_EQ(iterationsOf, (std::map<LocationId, uint64_t>{{0, 2}, {1, 2}, {2, 2}, {3, 2}}));

  ConvertOptions bad;
  bad.begin = "12min";
  try {
    convert(kSample, (dir / "bad.mtf").string(), bad);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 2) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "bad.mtf"));
}

TEST(Api, ErrorsCarryTheExitCodes) {
  try {
    Trace::open("/nonexistent/trace.otf2");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 2) << e.what();
  }
  TempDir dir;
  const std::string out = (dir / "x.mtf").string();
  convert(kSample, out);
  try {
    convert(kSample, out);  // exists, no force
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 3) << e.what();
  }
  EXPECT_THROW(eventKindByName("NoSuchKind"), Error);
}

// convert()'s selection (issue 31, part B): one rank's calls only.
TEST(Api, ConvertSelectsRanksAndKinds) {
  TempDir dir;
  const std::string out = (dir / "rank1.otf2").string();
  ConvertOptions options;
  options.select.ranks = "1";
  options.select.kinds = "Enter";  // with Leave
  const ConvertResult r = convert(kSample, out, options);
  Trace whole = Trace::open(kSample), cut = Trace::open(out);
  const Definitions& defs = whole.definitions();
  EventFilter rank1;
  rank1.locations = {defs.locations[1].id};
  auto expected = countByKind(whole, rank1);
  std::erase_if(expected,
                [](const auto& kv) { return kv.first != "Enter" && kv.first != "Leave"; });
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(countByKind(cut), expected);
  EXPECT_EQ(r.events, total(expected));
  EXPECT_EQ(cut.definitions().locations.size(), 1u);
  EXPECT_TRUE(r.selectionLost.empty());
  options.select.kinds.clear();
  options.force = true;
  EXPECT_FALSE(convert(kSample, out, options).selectionLost.empty());  // its partners' messages
  options.select.ranks = "4";
  try {
    convert(kSample, (dir / "none.otf2").string(), options);
    FAIL() << "no error for rank 4 of 4";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 2) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "none.otf2"));
}

}  // namespace
