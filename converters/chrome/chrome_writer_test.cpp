// The Chrome writer on a hand-made trace (every record kind, unbalanced nesting, a
// receive seen before its send) and on generated ones (every call and message found).
#include "converters/chrome/chrome_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "gen/generator.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::chrome {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class Scratch {
 public:
  Scratch() {
    path_ = fs::temp_directory_path() / ("mtf-chrome-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string readPlainOrGzip(const fs::path& p) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(p.c_str(), "rb"), &gzclose);
  std::string text;
  char block[65536];
  int n = 0;
  while (in && (n = gzread(in.get(), block, sizeof block)) > 0) text.append(block, n);
  return text;
}

// Two ranks: rank 1's events come first (its receive before rank 0's send).
struct HandMade {
  Definitions defs;
  Ref main = 0, send = 0, world = 0, metric = 0, attr = 0;
  HandMade() {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("node", "machine");
    for (LocationId l : {0, 1})
      b.location(l, "Master thread", b.locationGroup("MPI Rank " + std::to_string(l), node));
    world = defineMpiWorld(b, {0, 1});
    main = b.region("main", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    metric = b.metric("PAPI_TOT_INS", "#", 4);
    attr = 0;
    defs.add({DefKind::Attribute, {attr, b.string("note"), b.string(""), 12}, {}});
    defs.clock.resolution = 1'000'000'000;
    defs.clock.globalOffset = 1000;
  }
  void play(TraceSink& sink) const {
    sink.begin(defs);
    Event e;
    auto put = [&](EventKind k, LocationId l, Tick t, std::initializer_list<uint64_t> f) {
      e = Event{};
      e.set(k, l, t, f);
      sink.event(e);
    };
    put(EventKind::Enter, 1, 1000, {main});
    put(EventKind::MpiRecv, 1, 2500, {0, world, 7, 64});
    put(EventKind::Enter, 1, 3000, {main});  // never left
    put(EventKind::Leave, 0, 900, {send});   // a leave without an enter
    put(EventKind::Enter, 0, 1001, {main});
    put(EventKind::Enter, 0, 1100, {send});
    put(EventKind::MpiSend, 0, 1200, {1, world, 7, 64});
    put(EventKind::Leave, 0, 1300, {send});
    put(EventKind::Metric, 0, 1400, {metric, 1, 4, 123456});
    put(EventKind::MpiCollectiveBegin, 0, 1500, {});
    put(EventKind::MpiCollectiveEnd, 0, 1600, {11, world, 0, 8, 16});
    e = Event{};
    e.set(EventKind::MpiIsendComplete, 0, 1700, {42});
    e.attributes.push_back({attr, 12, defs.find(DefKind::Attribute, attr)->fields[1]});
    sink.event(e);
    put(EventKind::Leave, 0, 2000, {main});
    put(EventKind::Enter, 9, 2000, {main});  // an undefined location
    sink.end();
  }
};

json writeHandMade(const fs::path& out, LossReport& losses) {
  HandMade trace;
  ChromeWriter writer(out, WriteOptions{});
  trace.play(writer);
  losses = writer.losses();
  return json::parse(readPlainOrGzip(out));
}

std::vector<json> withPhase(const json& doc, const std::string& phase) {
  std::vector<json> found;
  for (const json& r : doc["traceEvents"])
    if (r["ph"] == phase) found.push_back(r);
  return found;
}

TEST(ChromeWriter, WritesEveryRecordKindOfAHandMadeTrace) {
  Scratch scratch;
  LossReport losses;
  const json doc = writeHandMade(scratch / "t.json", losses);
  EXPECT_EQ(doc["displayTimeUnit"], "ns");
  EXPECT_FALSE(fs::exists(scratch / "t.json.flow-ends.tmp"));
  // Names: two processes and two threads.
  std::set<std::string> names;
  for (const json& m : withPhase(doc, "M"))
    if (m["name"] == "process_name" || m["name"] == "thread_name") names.insert(m["args"]["name"]);
  EXPECT_EQ(names, (std::set<std::string>{"MPI Rank 0", "MPI Rank 1", "Master thread"}));
  // Calls: ts relative to the clock's offset, nanoseconds kept.
  std::map<std::string, json> calls;
  for (const json& x : withPhase(doc, "X"))
    calls[x["cat"].get<std::string>() + "/" + x["name"].get<std::string>() + "@" +
          std::to_string(x["tid"].get<int>())] = x;
  ASSERT_TRUE(calls.count("mpi/MPI_Send@0"));
  EXPECT_DOUBLE_EQ(calls["mpi/MPI_Send@0"]["ts"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(calls["mpi/MPI_Send@0"]["dur"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(calls["user/main@0"]["ts"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(calls["user/main@0"]["dur"].get<double>(), 0.999);
  EXPECT_EQ(calls["collective/MPI_Allreduce@0"]["args"]["received"], 16);
  EXPECT_EQ(calls["collective/MPI_Allreduce@0"]["args"]["comm"], "MPI_COMM_WORLD");
  EXPECT_DOUBLE_EQ(calls["collective/MPI_Allreduce@0"]["dur"].get<double>(), 0.1);
  EXPECT_EQ(calls["message/MpiSend@0"]["args"]["receiver"], 1);
  EXPECT_EQ(calls["message/MpiRecv@1"]["args"]["sender"], 0);
  // Unbalanced nesting kept: rank 1's inner main never left ("B"), rank 0's early leave ("E").
  EXPECT_EQ(withPhase(doc, "B").size(), 2u);
  ASSERT_EQ(withPhase(doc, "E").size(), 1u);
  EXPECT_DOUBLE_EQ(withPhase(doc, "E")[0]["ts"].get<double>(), -0.1);
  // The flow: one start, one end, same id, each at its message slice; the end after the start.
  const auto starts = withPhase(doc, "s"), ends = withPhase(doc, "f");
  ASSERT_EQ(starts.size(), 1u);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(starts[0]["id"], ends[0]["id"]);
  EXPECT_EQ(ends[0]["bp"], "e");
  EXPECT_EQ(starts[0]["ts"], calls["message/MpiSend@0"]["ts"]);
  EXPECT_EQ(ends[0]["ts"], calls["message/MpiRecv@1"]["ts"]);
  // The counter and the instant with its attribute.
  const auto counters = withPhase(doc, "C");
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(counters[0]["name"], "PAPI_TOT_INS");
  EXPECT_EQ(counters[0]["args"]["value"], 123456);
  const auto instants = withPhase(doc, "i");
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0]["args"]["request"], 42);
  EXPECT_EQ(instants[0]["args"]["attributes"]["note"], "note");
  EXPECT_EQ(losses, (LossReport{{"events of undefined locations", 1}}));
}

// Paraver states: slices of category "state" named by the .pcf, on a thread of their own
// per location (made at its first state, same pid, sorted with it); a state that ends
// before it begins has no length.
TEST(ChromeWriter, StatesAreSlicesOnAThreadOfTheirOwn) {
  Scratch scratch;
  HandMade trace;
  trace.defs.info.properties["paraver.pcf"] = "STATES\n0    Idle\n1    Running\n\nSTATES_COLOR\n";
  ChromeWriter writer(scratch / "s.json", WriteOptions{});
  writer.begin(trace.defs);
  Event e;
  e.set(EventKind::Enter, 1, 1000, {trace.main});
  writer.event(e);
  e.set(EventKind::State, 1, 1000, {1500, 1});
  writer.event(e);
  e.set(EventKind::State, 1, 1500, {1700, 7});
  writer.event(e);
  e.set(EventKind::State, 1, 1800, {1750, 0});  // ends before it begins
  writer.event(e);
  e.set(EventKind::Leave, 1, 2000, {trace.main});
  writer.event(e);
  writer.end();
  EXPECT_TRUE(writer.losses().empty());
  const json doc = json::parse(readPlainOrGzip(scratch / "s.json"));
  std::vector<json> states;
  for (const json& x : withPhase(doc, "X"))
    if (x["cat"] == "state") states.push_back(x);
  ASSERT_EQ(states.size(), 3u);
  EXPECT_EQ(states[0]["name"], "Running");
  EXPECT_EQ(states[1]["name"], "State 7");
  EXPECT_DOUBLE_EQ(states[0]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(states[0]["dur"].get<double>(), 0.5);
  EXPECT_EQ(states[1]["args"]["state"], 7);
  EXPECT_EQ(states[0]["pid"], 1);
  EXPECT_EQ(states[0]["tid"], 2);  // after the two locations' tids
  std::map<std::string, json> threadNames;
  for (const json& m : withPhase(doc, "M"))
    if (m["name"] == "thread_name") threadNames[m["args"]["name"]] = m;
  ASSERT_TRUE(threadNames.count("Master thread states"));
  EXPECT_EQ(threadNames["Master thread states"]["tid"], 2);
  EXPECT_DOUBLE_EQ(states[2]["dur"].get<double>(), 0.0);
  EXPECT_EQ(states[2]["args"]["end_ticks"], 1750);
  EXPECT_TRUE(withPhase(doc, "i").empty());
}

TEST(ChromeWriter, GzipOutputHoldsTheSameText) {
  Scratch scratch;
  LossReport losses;
  const json plain = writeHandMade(scratch / "t.json", losses);
  const json packed = writeHandMade(scratch / "t.json.gz", losses);
  std::ifstream raw(scratch / "t.json.gz", std::ios::binary);
  EXPECT_EQ(raw.get(), 0x1f);  // really gzip
  EXPECT_EQ(plain, packed);
}

// A generated wavefront: every Enter is a call, every send joins its receive.
TEST(ChromeWriter, GeneratedTraceHasEveryCallAndEveryMessageFlow) {
  Scratch scratch;
  gen::GenOptions o;
  o.ranks = 6;
  o.iterations = 3;
  o.inner = 4;
  o.noise = 0.1;
  o.splitComms = true;
  o.selfMessages = true;
  struct Count : TraceSink {
    ChromeWriter* writer;
    uint64_t enters = 0, messages = 0, sends = 0;
    void begin(const Definitions& d) override { writer->begin(d); }
    void event(const Event& e) override {
      enters += e.kind == EventKind::Enter;
      messages += isMpiPointToPoint(e.kind);
      sends += isSend(e.kind);
      writer->event(e);
    }
    void end() override { writer->end(); }
  } count;
  ChromeWriter writer(scratch / "w.json", WriteOptions{});
  count.writer = &writer;
  gen::generate(o, count);
  EXPECT_TRUE(writer.losses().empty());
  const json doc = json::parse(readPlainOrGzip(scratch / "w.json"));
  uint64_t calls = 0, slices = 0;
  std::map<std::string, int> flowEnds;
  bool sawEnd = false, startAfterEnd = false;
  for (const json& r : doc["traceEvents"]) {
    const std::string ph = r["ph"];
    if (ph == "X" && r["cat"] != "message" && r["cat"] != "collective") ++calls;
    if (ph == "X" && r["cat"] == "message") ++slices;
    if (ph == "s") ++flowEnds[r["id"]], startAfterEnd |= sawEnd;
    if (ph == "f") --flowEnds[r["id"]], sawEnd = true;
  }
  EXPECT_EQ(calls, count.enters);
  EXPECT_EQ(slices, count.messages);
  EXPECT_EQ(flowEnds.size(), count.sends);
  for (const auto& [id, balance] : flowEnds) EXPECT_EQ(balance, 0) << id;
  EXPECT_FALSE(startAfterEnd);
}

}  // namespace
}  // namespace mtf::chrome
