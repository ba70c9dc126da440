// mtf chop's core on a generated trace: 2 of 20 iterations cut into OTF2, which OTF2's own
// otf2-print reads without error; every Enter has its Leave; about 2/20 of the events.
#include "structure/chop.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "converters/otf2/otf2_test_util.hpp"
#include "gen/generator.hpp"
#include "model/nesting_check.hpp"
#include "registry/registry.hpp"
#include "structure/analyse.hpp"
#include "util/safe_output.hpp"

namespace mtf::structure {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("mtf_chop_test_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& to, const std::function<void(TraceSink&)>& produce) {
  SafeOutput out(to.string(), true);
  auto writer = formatForOutput(to).openWriter(out.stagingPath(), WriteOptions{});
  produce(*writer);
  writer.reset();
  out.commit();
}

TEST(Chop, TwoIterationsOfAWavefrontOpenInOtf2Print) {
  if (otf2::testing::run("otf2-print --version").status != 0)
    GTEST_SKIP() << "otf2-print is not installed";
  TempDir dir;
  gen::GenOptions o;
  o.ranks = 16;
  o.iterations = 20;
  o.inner = 8;
  o.noise = 0.1;
  const fs::path input = dir.path() / "in.otf2", output = dir.path() / "chop.otf2";
  uint64_t total = 0;
  write(input, [&](TraceSink& sink) { total = gen::generate(o, sink); });
  const Analysis a = analyse([&] { return openTrace(input, ReadOptions{}); }, AnalyseRequest{});
  const ChopWindow w = chopWindow(a.regions, a.input.grid.start, 1, 2, false, false);
  uint64_t written = 0, cut = 0;
  write(output, [&](TraceSink& writer) {
    ChopSink chop(writer, w);
    openTrace(input, ReadOptions{})->read(chop);
    written = chop.eventsWritten();
    cut = chop.messagesCut();
  });
  const auto print = otf2::testing::run("otf2-print " + otf2::testing::quoted(output));
  EXPECT_EQ(print.status, 0) << print.output.substr(0, 2000);
  EXPECT_EQ(print.output.find("error"), std::string::npos);
  const double expected = static_cast<double>(total) * 2 / 20;
  EXPECT_NEAR(static_cast<double>(written), expected, 0.2 * expected);
  NestingCheck nesting;
  openTrace(output, ReadOptions{})->read(nesting);
  EXPECT_TRUE(nesting.summary().balanced());
  EXPECT_LT(cut, written / 100) << "a cut at an iteration boundary leaves few messages open";
}

TEST(Chop, CallsOpenAtTheCutAreClosedAndMessagesCounted) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref main = b.region("main", RegionRole::Function, Paradigm::User);
  const Ref send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
  const Ref world = defineMpiWorld(b, {0, 1});
  struct Collect : TraceSink {
    void begin(const Definitions&) override {}
    void event(const Event& e) override { events.push_back(e); }
    void end() override {}
    std::vector<Event> events;
  } out;
  ChopSink chop(out, {100, 200, true});
  chop.begin(defs);
  Event e;
  auto put = [&](LocationId l, Tick t, EventKind k, std::initializer_list<uint64_t> f) {
    e.set(k, l, t, f);
    chop.event(e);
  };
  put(0, 0, EventKind::Enter, {main});
  put(0, 150, EventKind::Enter, {send});
  put(0, 160, EventKind::MpiSend, {1, world, 7, 8});  // received after the chop
  put(0, 170, EventKind::Leave, {send});
  put(0, 300, EventKind::Leave, {main});
  put(1, 250, EventKind::MpiRecv, {0, world, 7, 8});
  chop.end();
  ASSERT_EQ(out.events.size(), 5u);
  EXPECT_EQ(out.events.front().kind, EventKind::Enter);  // main, entered again at the cut
  EXPECT_EQ(out.events.front().time, 0u);                // shifted
  EXPECT_EQ(out.events.back().kind, EventKind::Leave);   // main, left at the chop's end
  EXPECT_EQ(out.events.back().time, 100u);
  EXPECT_EQ(chop.messagesCut(), 1u);
}

}  // namespace
}  // namespace mtf::structure
