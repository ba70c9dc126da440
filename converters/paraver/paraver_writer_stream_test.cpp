// The Paraver writer with time-ordered input (TraceSink::takeTimeOrder): the very file
// location-after-location input gives, without runs on disk, on real OTF2 traces and on
// a generated MPI trace with ties, messages and collectives; and the record sorter's
// release() on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <span>

#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"
#include "converters/paraver/pcf.hpp"
#include "converters/paraver/record_sorter.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::paraver {
namespace {

using testing::TempDir;

// Passes events on; never takes time order (so the reader reads location after location).
class ByLocationSink : public TraceSink {
 public:
  explicit ByLocationSink(TraceSink& inner) : writer_(inner) {}
  void begin(const Definitions& d) override { writer_.begin(d); }
  void event(const Event& e) override { writer_.event(e); }
  void end() override { writer_.end(); }

 protected:
  TraceSink& writer_;
};

// The file with the header's date "(dd/mm/yyyy at hh:mm)" left out.
std::string withoutDate(const std::string& path) {
  std::string text;
  EXPECT_TRUE(readSmallFile(path, text)) << path;
  const size_t open = text.find('('), close = text.find(')');
  if (open != std::string::npos && close != std::string::npos) text.erase(open, close - open);
  return text;
}

void expectNoTemporaryFiles(const TempDir& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_FALSE(entry.path().string().ends_with(".tmp")) << entry.path();
}

// Passes everything on, noting whether the writer took time order.
class TimeOrderProbe : public ByLocationSink {
 public:
  using ByLocationSink::ByLocationSink;
  bool takeTimeOrder() override { return took = writer_.takeTimeOrder(); }
  bool took = false;
};

// The files of both inputs compared; true if the second came in time order.
bool sameFilesBothWays(const std::string& trace) {
  TempDir dir;
  ParaverWriter byLocation(dir.file("a.prv"), {});
  ByLocationSink wrapper(byLocation);
  openTrace(trace, {})->read(wrapper);
  ParaverWriter byTime(dir.file("b.prv"), {});  // in time order where it can (canStream)
  byTime.setTimeOrderFromEvents(0);
  TimeOrderProbe probe(byTime);
  openTrace(trace, {})->read(probe);
  EXPECT_EQ(withoutDate(dir.file("a.prv")), withoutDate(dir.file("b.prv"))) << trace;
  EXPECT_EQ(withoutDate(dir.file("a.pcf")), withoutDate(dir.file("b.pcf"))) << trace;
  EXPECT_EQ(byLocation.losses(), byTime.losses()) << trace;
  expectNoTemporaryFiles(dir);
  return probe.took;
}

class RealTraceStream : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceStream, TimeOrderedInputWritesTheSameFiles) {
  sameFilesBothWays(MTF_DATA_DIR "/otf2/" + GetParam() + "/traces.otf2");
}

// The real OTF2 traces of ../shared: those whose tasks have one location each take time
// order (several communicators or not); the others (OpenMP threads, CUDA streams: FIFO
// message matching per task) do not. The files are the same either way.
TEST(SharedTraceStream, RealOtf2TracesWriteTheSameFilesInTimeOrder) {
  const std::filesystem::path root = std::filesystem::path(MTF_SHARED_DIR) / "traces" / "otf2";
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "needs " << root;
  const std::set<std::string> oneLocationPerTask = {"casita-mpi-tags", "pipit-ping-pong",
                                                    "pipit-ping-pong-papi", "sst-macro-mpi"};
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::filesystem::path trace = entry.path() / "traces.otf2";
    if (!std::filesystem::exists(trace)) continue;
    ++traces;
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(sameFilesBothWays(trace.string()), oneLocationPerTask.count(name) > 0) << name;
  }
  EXPECT_GE(traces, 8);
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceStream,
                         ::testing::Values("fastotf2-mi300", "pipit-ping-pong",
                                           "pipit-ping-pong-papi", "sst-macro-mpi"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// Ranks in a ring: calls, messages to the next rank, an allreduce now and then; many
// events of different ranks at equal times (the order among them must not change).
struct RingTrace {
  Definitions defs;
  std::vector<Event> events;  // location after location

  // `communicators`: also collectives on a communicator without rank 0, first of all, and
  // on COMM_SELF (location-after-location input meets the communicators in another order
  // than time-ordered input).
  RingTrace(int ranks, int steps, bool collectives, bool communicators = false) {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("node", "node");
    std::vector<LocationId> locations;
    for (int r = 0; r <= ranks; ++r) {  // and one more rank, in one long call
      b.location(r, "rank " + std::to_string(r), b.locationGroup("p" + std::to_string(r), node));
      locations.push_back(r);
    }
    const Ref world = defineMpiWorld(b, locations);
    std::vector<uint64_t> withoutFirst;
    for (int r = 1; r < ranks; ++r) withoutFirst.push_back(static_cast<uint64_t>(r));
    const Ref others = defineMpiComm(b, "others", withoutFirst, world);
    const Ref self = defineMpiSelfComm(b, "MPI_COMM_SELF", defineMpiSelfGroup(b), world);
    const Ref work = b.region("work", RegionRole::Function, Paradigm::User);
    const Ref send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    const Ref recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    const Ref reduce = b.region("MPI_Allreduce", RegionRole::CollAll2All, Paradigm::Mpi);
    std::mt19937 random(3);
    for (int r = 0; r < ranks; ++r) {
      Tick t = 0;
      const auto add = [&](EventKind k, std::initializer_list<uint64_t> f) {
        Event e;
        e.set(k, static_cast<LocationId>(r), t += random() % 3, f);
        events.push_back(e);
      };
      for (int s = 0; s < steps; ++s) {
        add(EventKind::Enter, {work});
        add(EventKind::Leave, {work});
        add(EventKind::Enter, {send});
        add(EventKind::MpiSend, {uint64_t((r + 1) % ranks), world, uint64_t(s % 4), 64});
        add(EventKind::Leave, {send});
        add(EventKind::Enter, {recv});
        add(EventKind::MpiRecv, {uint64_t((r + ranks - 1) % ranks), world, uint64_t(s % 4), 64});
        add(EventKind::Leave, {recv});
        const auto collective = [&](Ref comm) {
          add(EventKind::Enter, {reduce});
          add(EventKind::MpiCollectiveBegin, {});
          add(EventKind::MpiCollectiveEnd, {10, comm, 0, 8, 8});
          add(EventKind::Leave, {reduce});
        };
        if (communicators && s == 0 && r > 0) collective(others);
        if (communicators && s % 11 == 5) collective(self);
        if (collectives && s % 7 == 3) collective(world);
      }
    }
    // Its running state, from the first call's end to the second's start, comes only at
    // that start: every record after its beginning must wait for it (an OmpFork, which
    // Paraver cannot hold, ends its last "2:" line before).
    for (const auto& [kind, region, time] : {std::tuple{EventKind::Enter, send, 1},
                                             {EventKind::Leave, send, 2},
                                             {EventKind::OmpFork, 4, 3},
                                             {EventKind::Enter, send, 2 * steps},
                                             {EventKind::Leave, send, 2 * steps + 1}}) {
      Event e;
      e.set(kind, static_cast<LocationId>(ranks), static_cast<Tick>(time),
            {static_cast<uint64_t>(region)});
      events.push_back(e);
    }
  }
  // Writes it location after location, or in time order (ties by location).
  void writeTo(ParaverWriter& writer, bool timeOrder) {
    writer.begin(defs);
    std::vector<Event> order = events;
    if (timeOrder) {
      EXPECT_TRUE(writer.takeTimeOrder());
      std::stable_sort(order.begin(), order.end(),
                       [](const Event& a, const Event& b) { return a.time < b.time; });
    }
    for (const Event& e : order) writer.event(e);
    writer.end();
  }
};

void expectSameBothWays(RingTrace& trace) {
  TempDir dir;
  ParaverWriter byLocation(dir.file("a.prv"), {});
  trace.writeTo(byLocation, false);
  ParaverWriter byTime(dir.file("b.prv"), {});
  byTime.setTimeOrderFromEvents(0);
  trace.writeTo(byTime, true);
  EXPECT_EQ(withoutDate(dir.file("a.prv")), withoutDate(dir.file("b.prv")));
  EXPECT_EQ(byLocation.losses(), byTime.losses());
  expectNoTemporaryFiles(dir);
}

TEST(ParaverWriterStream, RingWithCollectivesIsTheSameInTimeOrder) {
  RingTrace trace(6, 3000, true);  // several MB of records: released many times
  expectSameBothWays(trace);
}

// Ids handed out as the communicators come in time order, renumbered at the end.
TEST(ParaverWriterStream, SeveralCommunicatorsAreTheSameInTimeOrder) {
  RingTrace trace(5, 400, true, true);
  expectSameBothWays(trace);
}

// The header guessed with the communicator's line, which no collective uses: the .prv
// is copied once behind the shorter header, still the same file.
TEST(ParaverWriterStream, HeaderOfAnotherSizeThanGuessedIsTheSame) {
  RingTrace trace(3, 50, false);
  expectSameBothWays(trace);
}

TEST(ParaverWriterStream, CompressedOutputDoesNotTakeTimeOrder) {
  TempDir dir;
  RingTrace trace(2, 5, false);
  WriteOptions options;
  options.compress = true;
  ParaverWriter writer(dir.file("c.prv"), options);
  writer.begin(trace.defs);
  EXPECT_FALSE(writer.takeTimeOrder());
}

TEST(ParaverWriterStream, SmallTraceDoesNotTakeTimeOrder) {
  TempDir dir;
  RingTrace trace(2, 5, false);  // streamable (the tests above), but far below the threshold
  ParaverWriter writer(dir.file("s.prv"), {});
  writer.begin(trace.defs);
  EXPECT_FALSE(writer.takeTimeOrder());
  writer.setTimeOrderFromEvents(0);
  EXPECT_TRUE(writer.takeTimeOrder());
}

// release() hands on every record before the bound, in (time, rank, order) order; what
// stays, with what comes later, follows in order: from memory, or from runs when the
// releases stop and the buffer overflows.
TEST(RecordSorter, ReleasesInOrderBeforeEachBound) {
  for (const bool releaseToTheEnd : {true, false}) {
    TempDir dir;
    std::vector<std::tuple<Tick, int, uint64_t, std::string>> expected;
    std::vector<std::string> got;
    RecordSorter sorter(dir.path() / "x.prv", size_t{1} << 16);
    std::mt19937_64 random(11);
    Tick now = 0;
    const auto out = [&](std::string_view line) { got.emplace_back(line); };
    constexpr int kRecords = 20000;
    for (int i = 0; i < kRecords; ++i) {
      now += random() % 2;
      const Tick time = now + random() % 50;  // nothing comes before `now`
      const uint8_t rank = static_cast<uint8_t>(random() % 3);
      const uint64_t order = (uint64_t(i) * 7919) % kRecords;  // unique, not arrival
      const std::string line = std::to_string(time) + ":" + std::to_string(i);
      sorter.addOrdered(time, rank, random() % 4, order, line);
      expected.emplace_back(time, rank, order, line);
      if (i % 500 == 499 && (releaseToTheEnd || i < kRecords / 2)) {
        EXPECT_EQ(sorter.release(now, out), sorter.runCount() == 0);
      }
    }
    EXPECT_EQ(sorter.runCount() > 0, !releaseToTheEnd);
    EXPECT_GT(got.size(), 0u);
    sorter.drain(out);
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], std::get<3>(expected[i])) << i;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
}

// Keeps the blocks a sorter hands on; each must end a line.
class BlockCollector : public LineBlockSink {
 public:
  void lines(std::string_view block) override {
    EXPECT_TRUE(block.ends_with('\n'));
    ++blocks;
    text.append(block);
  }
  std::string text;
  int blocks = 0;
};

// A LineBlockSink gets the very text the per-line output gives (each line ended), from
// memory and from runs, a line longer than a block included.
TEST(RecordSorter, BlocksOfLinesAsLineByLine) {
  for (const size_t memory : {size_t{64} << 20, size_t{1} << 20}) {
    TempDir dir;
    RecordSorter byLine(dir.path() / "a.prv", memory), byBlock(dir.path() / "b.prv", memory);
    std::string expected;
    const auto out = [&](std::string_view line) { (expected += line) += '\n'; };
    BlockCollector blocks;
    std::mt19937_64 random(30);
    for (int i = 0; i < 200000; ++i) {
      std::string line = std::to_string(i) + ":" + std::string(random() % 40, 'x');
      if (i == 150000) line.append(size_t{3} << 20, 'y');  // longer than a block
      const Tick time = static_cast<Tick>(i / 4 + random() % 8);
      for (RecordSorter* sorter : {&byLine, &byBlock}) sorter->add(time, 1, i % 5, line);
      if (i % 50000 == 49999) {
        EXPECT_EQ(byLine.release(static_cast<Tick>(i / 4), out),
                  byBlock.release(static_cast<Tick>(i / 4), blocks));
      }
    }
    EXPECT_EQ(byLine.runCount(), byBlock.runCount());
    EXPECT_EQ(byLine.runCount() > 0, memory < (size_t{64} << 20));
    byLine.drain(out);
    byBlock.drain(blocks);
    EXPECT_GT(blocks.blocks, 4);
    EXPECT_EQ(blocks.text.size(), expected.size());
    EXPECT_TRUE(blocks.text == expected);
  }
}

// A sink that offers a small memory of its own for the blocks, with guard bytes after it
// that no block may reach.
class OwnMemoryCollector : public LineBlockSink {
 public:
  static constexpr size_t kBlock = 300, kGuard = 128;
  OwnMemoryCollector() : memory_(kBlock + kGuard, '#') {}
  std::span<char> blockMemory() override { return {memory_.data(), kBlock}; }
  void lines(std::string_view block) override {
    EXPECT_TRUE(block.ends_with('\n'));
    if (block.data() == memory_.data()) ++inOwnMemory;
    text.append(block);
  }
  bool guardIntact() const {
    return std::all_of(memory_.begin() + kBlock, memory_.end(), [](char c) { return c == '#'; });
  }
  std::string text;
  int inOwnMemory = 0;

 private:
  std::vector<char> memory_;
};

// Lines of every length around the fixed-size copies (64 bytes) and the block's size, from
// TextBuffers (copied at a fixed size) and from plain texts, gathered in the sink's own
// small memory: the very text line by line gives, and nothing written past the memory.
TEST(RecordSorter, BlocksInTheSinksMemoryOfLinesOfEveryLength) {
  for (const bool released : {true, false}) {
    TempDir dir;
    RecordSorter byLine(dir.path() / "a.prv", size_t{1} << 20),
        byBlock(dir.path() / "b.prv", size_t{1} << 20);
    std::string expected;
    const auto out = [&](std::string_view line) { (expected += line) += '\n'; };
    OwnMemoryCollector blocks;
    std::mt19937_64 random(64);
    TextBuffer buffer;
    for (int i = 0; i < 20000; ++i) {
      buffer.clear();
      buffer.appendDecimal(uint64_t(i));
      buffer += std::string(random() % 400, static_cast<char>('a' + i % 26));
      const Tick time = static_cast<Tick>(i);
      byLine.add(time, 1, i % 3, buffer.view());
      if (i % 2) {
        byBlock.add(time, 1, i % 3, buffer);
      } else {
        byBlock.add(time, 1, i % 3, buffer.view());
      }
      if (released && i % 1000 == 999) {
        byLine.release(time, out);
        byBlock.release(time, blocks);
      }
    }
    byLine.drain(out);
    byBlock.drain(blocks);
    EXPECT_GT(blocks.inOwnMemory, 100);
    EXPECT_TRUE(blocks.guardIntact());
    EXPECT_EQ(blocks.text.size(), expected.size());
    EXPECT_TRUE(blocks.text == expected);
  }
}

}  // namespace
}  // namespace mtf::paraver
