#include "converters/paraver/paraver_writer.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>

#include "converters/paraver/extrae.hpp"
#include "converters/paraver/line_reader.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/record_sorter.hpp"
#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

std::string readText(const std::string& path) {
  std::string text;
  EXPECT_TRUE(readSmallFile(path, text)) << path;
  return text;
}

// `written` keeps each thread's records in the order `input` has them (what paraver-kernel
// keeps of the order, and what mtf's reader reads), so reading it gives every location's
// events in the same order as reading `input`.
void expectSameThreadOrder(const std::string& input, const std::string& written) {
  if (!written.ends_with(".gz")) {
    const auto in = testing::threadRecords(input), out = testing::threadRecords(written);
    ASSERT_EQ(in.size(), out.size());
    for (const auto& [thread, records] : in) EXPECT_TRUE(out.at(thread) == records) << thread;
  }
  const auto in = testing::eventsByLocation(input), out = testing::eventsByLocation(written);
  ASSERT_EQ(in.size(), out.size());
  for (const auto& [location, events] : in) {
    const std::vector<Event>& back = out.at(location);
    ASSERT_EQ(back.size(), events.size()) << location;
    const auto differ = std::mismatch(events.begin(), events.end(), back.begin());
    EXPECT_TRUE(differ.first == events.end())
        << "location " << location << ": event " << (differ.first - events.begin())
        << " differs (time " << differ.first->time << " read, " << differ.second->time
        << " read back)";
  }
}

// .prv -> model -> .prv: the same records, header, .pcf and .row, each thread's in order.
void expectRoundTrip(const std::string& input, const WriteOptions& options, const char* output) {
  TempDir dir;
  ParaverReader reader(input, {});
  ParaverWriter writer(dir.file(output), options);
  reader.read(writer);
  EXPECT_TRUE(writer.losses().empty());
  const std::string written = writer.prvPath().string();
  const std::string plainInput = input.ends_with(".gz") ? input.substr(0, input.size() - 3) : input;
  std::vector<std::string> got;
  if (written.ends_with(".gz")) {
    // Read the compressed output back through the reader's line splitter.
    LineReader lines(written);
    std::string_view line;
    while (lines.next(line))
      if (line.size() > 1 && line[1] == ':' && line[0] >= '1' && line[0] <= '4')
        got.emplace_back(line);
    std::sort(got.begin(), got.end());
  } else {
    got = testing::sortedRecords(written);
    EXPECT_EQ(testing::fileLines(written).front(), testing::fileLines(plainInput).front());
  }
  const std::vector<std::string> expected = testing::sortedRecords(plainInput);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
  expectSameThreadOrder(plainInput, written);
  EXPECT_EQ(readText(companionPath(written, ".pcf")), readText(companionPath(plainInput, ".pcf")));
  EXPECT_EQ(std::filesystem::exists(companionPath(written, ".row")),
            std::filesystem::exists(companionPath(plainInput, ".row")));
  // No temporary run is left beside the output.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_FALSE(entry.path().string().ends_with(".tmp")) << entry.path();
}

struct WrittenBack {
  uint64_t tolerated = 0, delayed = 0;  // the reader's counts
  bool lossless = false;                // the writer reported no loss
};

// Reads `input` and writes it to the .prv `output`.
WrittenBack writeBack(const std::string& input, const std::string& output) {
  ParaverReader reader(input, {});
  ParaverWriter writer(output, {});
  reader.read(writer);
  return {reader.counts().tolerated, reader.counts().delayed, writer.losses().empty()};
}

TEST(ParaverWriter, RoundTripLulesh) {
  expectRoundTrip(testing::kLulesh, {}, "out.prv");
}
TEST(ParaverWriter, RoundTripQsort) {
  expectRoundTrip(testing::kQsort, {}, "out.prv");
}
TEST(ParaverWriter, RoundTripQsortFromGzToGz) {
  expectRoundTrip(testing::kQsortGz, {}, "out.prv.gz");
}
// A PyCOMPSs trace, out of time order, with 24 state records that end before they begin
// (PyCOMPSs writes a duration there; paraver-kernel reads them): every record comes back,
// those too, event lines at one time as they were.
TEST(ParaverWriter, RoundTripPyCompssKeepsEveryRecord) {
  const std::string input = MTF_DATA_DIR "/paraver/compss-cholesky/cholesky_autoparallel.prv";
  TempDir dir;
  const WrittenBack back = writeBack(input, dir.file("out.prv"));
  const std::vector<std::string> expected = testing::sortedRecords(input);
  size_t backwards = 0;
  for (const std::string& record : expected) {
    std::vector<uint64_t> f;
    std::stringstream fields(record);
    for (std::string field; std::getline(fields, field, ':');) f.push_back(std::stoull(field));
    if (f[0] == 1 && f[6] < f[5]) ++backwards;  // 1:cpu:appl:task:thread:begin:end:state
  }
  EXPECT_EQ(backwards, 24u);
  EXPECT_EQ(back.tolerated, 0u);
  EXPECT_EQ(testing::sortedRecords(dir.file("out.prv")), expected);
  // It is out of time order (two parts of a thread one after the other; the reader moves
  // the second's events) and puts states before events of their time: both kept.
  EXPECT_GT(back.delayed, 0u);
  expectSameThreadOrder(input, dir.file("out.prv"));
}

// PyPOP's EPOCH trace (Extrae, gzipped, blocking sends whose communication records follow
// their call's last event line): written back plain, every line is the original's.
TEST(ParaverWriter, RoundTripEpochGzIsTheSameFile) {
  const std::string input = MTF_DATA_DIR "/paraver/pypop-epoch-2proc/epoch_2proc.prv.gz";
  TempDir dir;
  const WrittenBack back = writeBack(input, dir.file("out.prv"));
  EXPECT_TRUE(back.lossless);
  EXPECT_EQ(back.tolerated, 0u);
  std::vector<std::string> original;
  LineReader lines(input);
  std::string_view line;
  while (lines.next(line)) original.emplace_back(line);
  EXPECT_EQ(original.size(), 16292u);
  EXPECT_TRUE(testing::fileLines(dir.file("out.prv")) == original);
  EXPECT_EQ(readText(dir.file("out.pcf")),
            readText(MTF_DATA_DIR "/paraver/pypop-epoch-2proc/epoch_2proc.pcf"));
}

// A counter value above INT64_MAX (Extrae writes them unsigned) comes back as written; a
// value of another type comes back in the signed form paraver-kernel's own tools write,
// which paraver-kernel reads as the same 64 bits.
TEST(ParaverWriter, ValuesAboveInt64MaxComeBack) {
  TempDir dir;
  const std::string header = "#Paraver (01/02/2023 at 10:00):1000_ns:1(1):1:1(1:1)\n";
  dir.write("in.pcf", "EVENT_TYPE\n7 42000008 PAPI_L3_TCM [L3 cache misses]\n");
  dir.write("in.prv", header + "2:1:1:1:1:10:42000008:9223512060668553767\n");
  expectRoundTrip(dir.file("in.prv"), {}, "out.prv");
  dir.write("in.prv", header +
                          "2:1:1:1:1:10:42000008:18446744073709551615:40000001:"
                          "18446744073709551615\n");
  writeBack(dir.file("in.prv"), dir.file("out.prv"));
  EXPECT_EQ(testing::sortedRecords(dir.file("out.prv")),
            std::vector<std::string>{"2:1:1:1:1:10:42000008:18446744073709551615:40000001:-1"});
}

TEST(ParaverWriter, CompressOptionAddsGz) {
  WriteOptions options;
  options.compress = true;
  expectRoundTrip(testing::kLulesh, options, "out.prv");
}

TEST(ParaverWriter, HeaderLinesAreKeptInOrder) {
  TempDir dir;
  ParaverReader reader(testing::kLulesh, {});
  ParaverWriter writer(dir.file("o.prv"), {});
  reader.read(writer);
  const auto in = testing::fileLines(testing::kLulesh);
  const auto out = testing::fileLines(dir.file("o.prv"));
  // Header, 14 communicator lines and the comment, verbatim.
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], in[i]) << i;
}

// Events fed location after location must give the same file as interleaved ones.
TEST(ParaverWriter, OrderOfInputDoesNotMatter) {
  TempDir dir;
  CollectSink collected;
  ParaverReader reader(testing::kQsort, {});
  reader.read(collected);
  std::vector<Event> byLocation = collected.events;
  std::stable_sort(byLocation.begin(), byLocation.end(),
                   [](const Event& a, const Event& b) { return a.location < b.location; });
  ParaverWriter writer(dir.file("byloc.prv"), {});
  writer.begin(reader.definitions());
  for (const Event& e : byLocation) writer.event(e);
  writer.end();
  EXPECT_TRUE(testing::sortedRecords(dir.file("byloc.prv")) ==
              testing::sortedRecords(testing::kQsort));
}

TEST(RecordSorter, SpillsRunsAndMergesThemInOrder) {
  TempDir dir;
  std::vector<std::tuple<Tick, int, std::string>> expected;
  {
    RecordSorter sorter(dir.path() / "x.prv", 4096);  // tiny: forces many runs
    std::mt19937_64 random(42);
    for (int i = 0; i < 20000; ++i) {
      const Tick time = random() % 5000;
      const uint8_t rank = static_cast<uint8_t>(random() % 3);
      const std::string line =
          std::to_string(time) + ":" + std::to_string(rank) + ":" + std::to_string(i);
      sorter.add(time, rank, line);
      expected.emplace_back(time, rank * 100000 + i, line);
    }
    EXPECT_GT(sorter.runCount(), 10u);
    std::sort(expected.begin(), expected.end());
    size_t index = 0;
    sorter.drain([&](std::string_view line) {
      ASSERT_LT(index, expected.size());
      EXPECT_EQ(line, std::get<2>(expected[index])) << index;
      ++index;
    });
    EXPECT_EQ(index, expected.size());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Streams as the writer makes them (mostly in order, some not), records longer than a
// run's read buffer, many runs: the merge gives (time, rank, arrival) order all the same.
TEST(RecordSorter, MergesStreamsInAndOutOfOrderAcrossRuns) {
  TempDir dir;
  std::vector<std::tuple<Tick, int, std::string>> expected;
  {
    RecordSorter sorter(dir.path() / "x.prv", 1 << 16);
    std::mt19937_64 random(7);
    std::vector<Tick> clock(8, 0);
    for (int i = 0; i < 30000; ++i) {
      const size_t stream = random() % clock.size();
      // Streams 0 to 5 go forward in time; 6 and 7 jump back and forth.
      const Tick time = stream < 6 ? clock[stream] += random() % 3 : random() % 20000;
      const uint8_t rank = static_cast<uint8_t>(stream % 3);
      std::string line = std::to_string(time) + ":" + std::to_string(i);
      if (i % 10000 == 1) line += std::string(300 << 10, 'x');  // > a run's read buffer
      sorter.add(time, rank, stream, line);
      expected.emplace_back(time, rank * 100000 + i, line);
    }
    EXPECT_GT(sorter.runCount(), 10u);
    std::sort(expected.begin(), expected.end());
    size_t index = 0;
    sorter.drain([&](std::string_view line) {
      ASSERT_LT(index, expected.size());
      EXPECT_EQ(line, std::get<2>(expected[index])) << index;
      ++index;
    });
    EXPECT_EQ(index, expected.size());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// A small MPI trace as an OTF2 reader would give it: 2 ranks, main, MPI_Send/MPI_Recv.
struct SmallMpiTrace {
  Definitions defs;
  Ref main = 0, send = 0, recv = 0, world = 0;
  std::vector<Event> events;

  explicit SmallMpiTrace(uint64_t resolution) {
    DefinitionBuilder b(defs);
    defs.clock.resolution = resolution;
    defs.clock.globalOffset = 1000;
    const uint64_t node = b.systemTreeNode("node-a", "node");
    for (int r = 0; r < 2; ++r)
      b.location(r, "rank " + std::to_string(r),
                 b.locationGroup("proc " + std::to_string(r), node));
    world = defineMpiWorld(b, {0, 1});
    main = b.region("main", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    add(EventKind::Enter, 0, 1000, {main});
    add(EventKind::Enter, 1, 1000, {main});
    add(EventKind::Enter, 0, 1010, {send});
    add(EventKind::MpiSend, 0, 1011, {1, world, 7, 4096});
    add(EventKind::Leave, 0, 1020, {send});
    add(EventKind::Enter, 1, 1005, {recv});
    add(EventKind::MpiRecv, 1, 1030, {0, world, 7, 4096});
    add(EventKind::Leave, 1, 1031, {recv});
    add(EventKind::Leave, 0, 1040, {main});
    add(EventKind::Leave, 1, 1040, {main});
  }
  void add(EventKind k, LocationId l, Tick t, std::initializer_list<uint64_t> f) {
    Event e;
    e.set(k, l, t, f);
    events.push_back(e);
  }
  void writeTo(TraceSink& sink) {
    sink.begin(defs);
    for (const Event& e : events) sink.event(e);
    sink.end();
  }
};

TEST(ParaverWriter, ExtraeStyleFromAnMpiTrace) {
  TempDir dir;
  SmallMpiTrace trace(1'000'000);
  ParaverWriter writer(dir.file("mpi.prv"), {});
  trace.writeTo(writer);
  EXPECT_TRUE(writer.losses().empty());
  const auto lines = testing::fileLines(dir.file("mpi.prv"));
  EXPECT_NE(lines[0].find("):40_us:1(2):1:2(1:1,1:1)"), std::string::npos) << lines[0];
  const auto records = testing::sortedRecords(dir.file("mpi.prv"));
  // One communication record: logical send at MPI_Send's start, physical at the send
  // event; logical receive at MPI_Recv's start, physical at the receive event.
  EXPECT_EQ(std::count(records.begin(), records.end(), "3:1:1:1:1:10:11:2:1:2:1:5:30:4096:7"), 1);
  // States derived from the calls: running, blocking send, waiting a message.
  for (const char* state : {"1:1:1:1:1:0:10:1", "1:1:1:1:1:10:20:4", "1:1:1:1:1:20:40:1",
                            "1:2:1:2:1:0:5:1", "1:2:1:2:1:5:31:3", "1:2:1:2:1:31:40:1"})
    EXPECT_EQ(std::count(records.begin(), records.end(), state), 1) << state;
  // Read back: the calls are named regions again, the message a send/receive pair.
  ParaverReader reader(dir.file("mpi.prv"), {});
  CollectSink back;
  reader.read(back);
  EXPECT_EQ(back.count(EventKind::Enter), 4u);
  EXPECT_EQ(back.count(EventKind::MpiSend), 1u);
  EXPECT_EQ(back.count(EventKind::State), 6u);
  std::set<std::string> names;
  for (const Event& e : back.events)
    if (e.kind == EventKind::Enter)
      names.insert(std::string(reader.definitions().regionName(static_cast<Ref>(e.fields[0]))));
  EXPECT_EQ(names, (std::set<std::string>{"main", "MPI_Send", "MPI_Recv"}));
  EXPECT_EQ(reader.definitions().locations()[1].name, "rank 1");  // from the .row
}

TEST(ParaverWriter, ResolutionThatDividesANanosecondIsExact) {
  TempDir dir;
  SmallMpiTrace trace(100'000'000);  // 10 ns ticks
  ParaverWriter writer(dir.file("t.prv"), {});
  trace.writeTo(writer);
  EXPECT_TRUE(writer.losses().empty());
  const auto records = testing::sortedRecords(dir.file("t.prv"));
  EXPECT_EQ(std::count(records.begin(), records.end(), "3:1:1:1:1:100:110:2:1:2:1:50:300:4096:7"),
            1);
  EXPECT_NE(testing::fileLines(dir.file("t.prv"))[0].find(":400_ns:"), std::string::npos);
}

TEST(ParaverWriter, OtherResolutionsAreRoundedAndReported) {
  TempDir dir;
  SmallMpiTrace trace(3'000'000'000);  // 3 GHz cycles: 1/3 ns per tick
  ParaverWriter writer(dir.file("t.prv"), {});
  trace.writeTo(writer);
  EXPECT_EQ(writer.losses().size(), 1u);
  EXPECT_EQ(writer.losses().begin()->second, trace.events.size());
  const auto records = testing::sortedRecords(dir.file("t.prv"));
  // Ticks 10, 11 -> 3.33 ns, 3.67 ns -> 3, 4.
  EXPECT_EQ(std::count(records.begin(), records.end(), "3:1:1:1:1:3:4:2:1:2:1:2:10:4096:7"), 1);
}

TEST(ParaverWriter, UnmatchedMessagesAndUnknownKindsAreReported) {
  TempDir dir;
  SmallMpiTrace trace(1'000'000);
  trace.add(EventKind::MpiSend, 0, 1040, {1, trace.world, 9, 1});
  trace.add(EventKind::OmpFork, 0, 1040, {4});
  ParaverWriter writer(dir.file("t.prv"), {});
  trace.writeTo(writer);
  EXPECT_EQ(writer.losses().at("sends or receives without a partner (no communication record)"),
            1u);
  EXPECT_EQ(writer.losses().at("OmpFork events (no Paraver record)"), 1u);
}

// One rank sends to six others in turn, through two communicators that number the ranks
// in opposite orders (the same rank is another location in each), more peers than a
// location's recent ones: every communication record joins the right receiver.
TEST(ParaverWriter, MessagesToManyPeersReachTheirReceivers) {
  Definitions defs;
  DefinitionBuilder b(defs);
  defs.clock.resolution = 1'000'000'000;
  const uint64_t node = b.systemTreeNode("node-a", "node");
  std::vector<LocationId> ranks;
  for (int r = 0; r < 7; ++r) {
    b.location(r, "rank " + std::to_string(r), b.locationGroup("p" + std::to_string(r), node));
    ranks.push_back(r);
  }
  const Ref world = defineMpiWorld(b, ranks);
  const Ref reversed = defineMpiComm(b, "reversed", {6, 5, 4, 3, 2, 1, 0}, world);
  std::vector<Event> sends, receives;
  for (uint64_t i = 0; i < 24; ++i) {
    const uint64_t peer = 1 + (i * 5) % 6;  // world rank of the receiver
    const bool inWorld = i % 3 != 0;
    const Ref comm = inWorld ? world : reversed;
    Event e;
    e.set(EventKind::MpiSend, 0, 100 + 10 * i, {inWorld ? peer : 6 - peer, comm, i, 8});
    sends.push_back(e);
    e.set(EventKind::MpiRecv, peer, 105 + 10 * i, {inWorld ? 0u : 6u, comm, i, 8});
    receives.push_back(e);
  }
  TempDir dir;
  ParaverWriter writer(dir.file("peers.prv"), {});
  writer.begin(defs);
  for (const Event& e : sends) writer.event(e);
  for (const Event& e : receives) writer.event(e);
  writer.end();
  size_t communications = 0;
  for (const std::string& record : testing::sortedRecords(dir.file("peers.prv"))) {
    if (!record.starts_with("3:")) continue;
    ++communications;
    std::vector<uint64_t> fields;
    std::stringstream text(record.substr(2));
    for (std::string field; std::getline(text, field, ':');) fields.push_back(std::stoull(field));
    ASSERT_EQ(fields.size(), 14u) << record;
    const uint64_t tag = fields[13];
    EXPECT_EQ(fields[2], 1u) << record;                 // the sender's task
    EXPECT_EQ(fields[8], 2 + (tag * 5) % 6) << record;  // the receiver's task
    EXPECT_EQ(fields[11], 105 + 10 * tag) << record;    // its receive time
  }
  EXPECT_EQ(communications, 24u);
}

TEST(ParaverWriter, UnwritableOutputIsIoError) {
  SmallMpiTrace trace(1'000'000);
  ParaverWriter writer("/nonexistent-dir/x.prv", {});
  EXPECT_THROW(trace.writeTo(writer), IoError);
}

}  // namespace
}  // namespace mtf::paraver
