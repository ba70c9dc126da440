#include "converters/tau/tau_writer.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_reader.hpp"
#include "converters/tau/tau_test_util.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::tau {
namespace {

namespace fs = std::filesystem;
using testing::byLocation;
using testing::CollectSink;
using testing::kL5;
using testing::kL9;
using testing::readBytes;
using testing::ScratchDir;

// Pumps `source` into a TAU writer at `out`.
LossReport convert(TraceSource& source, const fs::path& out, bool merged = false) {
  WriteOptions options;
  options.merged = merged;
  TauWriter writer(out, options);
  source.read(writer);
  return writer.losses();
}

// The text after the "N dynamic_trace_events" header line.
std::string afterHeader(const std::string& edf) {
  const size_t header = edf.find("dynamic_trace_events");
  return edf.substr(edf.find('\n', header));
}

TEST(TauWriter, RoundTripGivesByteIdenticalThreadFiles) {
  for (const auto& dir : {kL5, kL9}) {
    ScratchDir scratch("roundtrip");
    const fs::path out = scratch.path() / "out_tau";
    TauReader reader(dir, {});
    EXPECT_TRUE(convert(reader, out).empty());
    size_t compared = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const fs::path name = entry.path().filename();
      if (!parseThreadFileName(name)) continue;
      ASSERT_TRUE(fs::exists(out / name)) << name;
      EXPECT_TRUE(readBytes(entry.path()) == readBytes(out / name)) << dir << " " << name;
      ++compared;
    }
    EXPECT_GE(compared, 3u);
    // The edf keeps every line; only the declared count is corrected (one too many).
    const std::string original = readBytes(dir / "events.0.edf");
    const std::string written = readBytes(out / "events.0.edf");
    EXPECT_EQ(afterHeader(original), afterHeader(written));
    EXPECT_NE(original, written);
    const EdfTable edf = readEdf(out / "events.0.edf");
    EXPECT_EQ(edf.declared, edf.entries.size());
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(out)) ++files;
    EXPECT_EQ(files, compared + 1);
  }
}

TEST(TauWriter, MergedOutputHoldsTheSameEventsAsThePerThreadSet) {
  ScratchDir scratch("merged");
  const fs::path out = scratch.path() / "merged_tau";
  TauReader perThread(kL9, {});
  convert(perThread, out, true);
  ASSERT_TRUE(fs::exists(out / "tau.trc"));
  ASSERT_TRUE(fs::exists(out / "tau.edf"));
  EXPECT_FALSE(fs::exists(out / ".tau-merge-scratch"));
  // Every record lands in the merged file.
  uint64_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(kL9))
    if (parseThreadFileName(entry.path())) bytes += entry.file_size();
  EXPECT_EQ(fs::file_size(out / "tau.trc"), bytes);
  TauReader original(kL9, {});
  TauReader merged(out / "tau.trc", {});
  CollectSink a, b;
  original.read(a);
  merged.read(b);
  EXPECT_EQ(byLocation(a), byLocation(b));
  const EdfTable edf = readEdf(out / "tau.edf");
  EXPECT_EQ(edf.declared, edf.entries.size());
}

TEST(TauWriter, MergedRoundTripKeepsTheRecords) {
  ScratchDir scratch("merged-rt");
  const fs::path out = scratch.path() / "t";
  TauReader reader(kL5 / "tau.trc", {});
  convert(reader, out, true);
  EXPECT_TRUE(readBytes(kL5 / "tau.edf") == readBytes(out / "tau.edf"));
  EXPECT_TRUE(readBytes(kL5 / "tau.trc") == readBytes(out / "tau.trc"));
}

// A small MPI trace built here: 4 ranks (one thread each, plus a second thread on rank
// 0), MPI_COMM_WORLD and a sub-communicator of the odd ranks, times in nanoseconds.
struct MpiTrace : TraceSource {
  Definitions defs;
  Ref world = 0, odd = 0, compute = 0, metric = 0;
  uint64_t roundedTimes = 0;
  MpiTrace() {
    defs.clock.resolution = 1'000'000'000;
    DefinitionBuilder b(defs);
    const uint64_t root = b.systemTreeNode("machine", "machine");
    std::vector<LocationId> ranks;
    for (uint64_t r = 0; r < 4; ++r) {
      const uint64_t group = b.locationGroup("rank " + std::to_string(r), root);
      b.location(100 + r, "main", group);
      ranks.push_back(100 + r);
      if (r == 0) b.location(200, "helper", group);
    }
    world = defineMpiWorld(b, ranks);
    odd = defineMpiComm(b, "odd", {1, 3}, world);
    compute = b.region("compute", RegionRole::Function, Paradigm::User);
    metric = b.metric("flops", "", 10 /* double */);
  }
  const Definitions& definitions() override { return defs; }
  void emit(TraceSink& sink, EventKind kind, LocationId loc, Tick t,
            std::initializer_list<uint64_t> fields) {
    Event e;
    e.set(kind, loc, t, fields);
    if (t % 1000 != 0) ++roundedTimes;
    sink.event(e);
  }
  void read(TraceSink& sink) override {
    sink.begin(defs);
    for (uint64_t r = 0; r < 4; ++r) {
      const LocationId loc = 100 + r;
      const Tick base = 1'000'000 * (r + 1);
      emit(sink, EventKind::Enter, loc, base, {compute});
      emit(sink, EventKind::MpiSend, loc, base + 1500, {(r + 1) % 4, world, 7 + r, 1000 * r});
      emit(sink, EventKind::MpiRecv, loc, base + 3000,
           {(r + 3) % 4, world, 7 + (r + 3) % 4, 1000 * ((r + 3) % 4)});
      if (r % 2 == 1)  // rank 1 -> rank 3 and back inside "odd": ranks 0 and 1 there
        emit(sink, EventKind::MpiSend, loc, base + 4000, {r == 1 ? 1u : 0u, odd, 300, 1 << 20});
      if (r % 2 == 1)
        emit(sink, EventKind::MpiRecv, loc, base + 5000, {r == 1 ? 1u : 0u, odd, 300, 1 << 20});
      emit(sink, EventKind::Metric, loc, base + 6000, {metric, 1, 10, bitsOf(2.0 * r)});
      emit(sink, EventKind::Leave, loc, base + 7777, {compute});
    }
    emit(sink, EventKind::Enter, 200, 50'000, {compute});
    emit(sink, EventKind::Leave, 200, 60'000, {compute});
    sink.end();
  }
};

// (world rank of sender, world rank of receiver, tag, length, comm name) of every message.
using MessageKey = std::tuple<int64_t, int64_t, uint64_t, uint64_t, std::string>;

std::pair<std::multiset<MessageKey>, std::multiset<MessageKey>> messages(const CollectSink& s) {
  const RankMap ranks(s.defs);
  std::multiset<MessageKey> sends, recvs;
  for (const Event& e : s.events) {
    if (!isMpiPointToPoint(e.kind)) continue;
    const Ref comm = static_cast<Ref>(e.fields[1]);
    const int64_t self = ranks.worldRank(e.location);
    const int64_t other = ranks.worldRankOf(comm, e.fields[0], e.location);
    const DefRecord* c = s.defs.find(DefKind::Comm, comm);
    const std::string commName(s.defs.string(c->field("name")));
    if (isSend(e.kind)) sends.emplace(self, other, e.fields[2], e.fields[3], commName);
    if (isRecv(e.kind)) recvs.emplace(other, self, e.fields[2], e.fields[3], commName);
  }
  return {sends, recvs};
}

TEST(TauWriter, MessagesSurviveTheTripThroughTau) {
  ScratchDir scratch("mpi");
  MpiTrace trace;
  const LossReport losses = convert(trace, scratch.path() / "t");
  EXPECT_EQ(losses.at("event times rounded to microseconds"), trace.roundedTimes);
  TauReader reader(scratch.path() / "t", {});
  CollectSink back;
  reader.read(back);
  CollectSink original;
  MpiTrace().read(original);
  const auto [sends, recvs] = messages(back);
  EXPECT_EQ(sends.size(), 6u);
  EXPECT_EQ(sends, recvs);  // every send matches a receive
  // Same partners, tags and sizes as the original (TAU keeps world ranks; the
  // communicator survives as its 6-bit id: MPI_COMM_WORLD stays MPI_COMM_WORLD).
  auto [origSends, origRecvs] = messages(original);
  std::multiset<std::tuple<int64_t, int64_t, uint64_t, uint64_t>> a, b;
  for (const auto& m : origSends)
    a.emplace(std::get<0>(m), std::get<1>(m), std::get<2>(m), std::get<3>(m));
  for (const auto& m : sends)
    b.emplace(std::get<0>(m), std::get<1>(m), std::get<2>(m), std::get<3>(m));
  EXPECT_EQ(a, b);
  for (const auto& m : sends)
    EXPECT_EQ(std::get<4>(m), std::get<2>(m) == 300 ? "TAU communicator 1" : "MPI_COMM_WORLD");
}

TEST(TauWriter, TraceFromElsewhereGetsTauBookkeepingAndAProperEdf) {
  ScratchDir scratch("foreign");
  MpiTrace trace;
  convert(trace, scratch.path() / "t");
  for (uint32_t node = 0; node < 4; ++node) {
    const EdfTable edf = readEdf(scratch.path() / "t" / edfFileName(node));
    EXPECT_EQ(edf.declared, edf.entries.size());
    ASSERT_TRUE(edf.find(60007));
    EXPECT_EQ(edf.find(60007)->name, "MESSAGE_SEND");
    RecordReader records(scratch.path() / "t" / threadFileName(node, 0, 0), std::nullopt);
    Record r, previous;
    ASSERT_TRUE(records.next(r));
    EXPECT_EQ(r.event, kEvInit);
    while (records.next(r)) {
      EXPECT_GE(r.time, previous.time);
      EXPECT_EQ(r.node, node);
      previous = r;
    }
    EXPECT_EQ(previous.event, kWallClock);
  }
  EXPECT_TRUE(fs::exists(scratch.path() / "t" / threadFileName(0, 0, 1)));
}

TEST(TauWriter, WritesTheLayoutTheTraceCameFrom) {
  ScratchDir scratch("layout");
  MpiTrace trace;
  trace.defs.info.properties["tau.record_format"] = "32be";
  convert(trace, scratch.path() / "t");
  RecordReader records(scratch.path() / "t" / threadFileName(2, 0, 0), std::nullopt);
  EXPECT_EQ(records.format(), (RecordFormat{32, true}));
  TauReader reader(scratch.path() / "t", {});
  CollectSink back;
  reader.read(back);
  EXPECT_EQ(back.defs.info.properties.at("tau.record_format"), "32be");
}

TEST(TauWriter, MergingManyThreadFilesKeepsTimeAndInputOrder) {
  ScratchDir scratch("many");
  std::vector<fs::path> inputs;
  for (uint16_t i = 0; i < 300; ++i) {  // more than can be open at once: batches of runs
    inputs.push_back(scratch.path() / threadFileName(0, 0, i));
    RecordAppender out(inputs.back(), {});
    out.append(Record{kEvInit, 0, i, kInitParameter, 5});  // all tie at time 5
    out.append(Record{1, 0, i, 1, 10u + (i * 7) % 13});
    out.flush();
  }
  mergeThreadFiles(inputs, {}, scratch.path() / "tau.trc");
  RecordReader merged(scratch.path() / "tau.trc", std::nullopt);
  ASSERT_EQ(merged.recordCount(), 600u);
  Record r, previous{};
  for (uint16_t i = 0; i < 300; ++i) {  // the ties come in input order
    ASSERT_TRUE(merged.next(r));
    EXPECT_EQ(r.thread, i);
  }
  while (merged.next(r)) {
    EXPECT_GE(r.time, previous.time);
    if (r.time == previous.time) {
      EXPECT_GT(r.thread, previous.thread);
    }
    previous = r;
  }
}

}  // namespace
}  // namespace mtf::tau
