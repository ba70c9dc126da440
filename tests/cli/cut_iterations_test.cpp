// Issue 31 (part A), end to end: `mtf convert --construct PATH --iterations A-B` on the
// generated wavefront gives, on every rank, exactly the events of iterations A to B: those
// from the A-th `Enter iteration` to the B-th `Leave iteration` of the uncut trace's dump
// (the generator wraps each iteration in that region), plus `main` entered again and
// left. Also: the cut's bad values exit 2 and write nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

using PerLocation = std::map<std::string, std::vector<std::string>>;  // location -> kinds

// Kinds of each location's events, and the places of its `iteration` enters and leaves.
struct Dump {
  PerLocation kinds;
  std::map<std::string, std::vector<size_t>> enters, leaves;
};

Dump readDump(const std::string& path) {
  const auto r = run(mtfProgram() + " -q dump --events-only " + path, false);
  EXPECT_EQ(r.status, 0) << r.output;
  Dump d;
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string location, time, kind;
    if (!(words >> location >> time >> kind) || location[0] != 'L') continue;
    const bool iteration = line.find("(\"iteration\")") != std::string::npos;
    if (iteration && kind == "Enter") d.enters[location].push_back(d.kinds[location].size());
    if (iteration && kind == "Leave") d.leaves[location].push_back(d.kinds[location].size());
    d.kinds[location].push_back(kind);
  }
  return d;
}

// The top-level loop of `mtf model --positions`: its path and iteration count.
std::pair<std::string, uint64_t> outerLoop(const std::string& trace) {
  const auto r = run(mtfProgram() + " -q model --positions " + trace, false);
  EXPECT_EQ(r.status, 0) << r.output;
  const std::regex loop(R"((^|\n)(\d+) for i0 = 1 to (\d+) )");
  std::smatch m;
  EXPECT_TRUE(std::regex_search(r.output, m, loop)) << r.output;
  return {m[2], std::stoull(m[3])};
}

class CutIterations : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = freshTempDir("cut-iterations");
    trace_ = dir_ + "/wf.otf2";
    const auto gen = run(genProgram() + " wavefront --ranks 6 --iterations 9 --inner 3 " +
                         "--noise 0.1 -q -o " + trace_);
    ASSERT_EQ(gen.status, 0) << gen.output;
  }

  // Cuts iterations a-b of `input` and compares every rank with the uncut dump.
  void expectIterations(const std::string& input, uint64_t a, uint64_t b, const std::string& to) {
    const auto [path, count] = outerLoop(input);
    ASSERT_LE(b, count);
    const std::string out = dir_ + "/cut-" + std::to_string(a) + "-" + std::to_string(b) + to;
    const auto conv = run(mtfProgram() + " convert " + input + " -o " + out + " --construct " +
                          path + " --iterations " + std::to_string(a) + "-" + std::to_string(b));
    ASSERT_EQ(conv.status, 0) << conv.output;
    const Dump whole = readDump(trace_), cut = readDump(out);
    ASSERT_EQ(cut.kinds.size(), whole.kinds.size());
    for (const auto& [location, kinds] : whole.kinds) {
      ASSERT_EQ(whole.enters.at(location).size(), count) << location;
      const size_t first = whole.enters.at(location)[a - 1];
      const size_t last = whole.leaves.at(location)[b - 1];
      std::vector<std::string> want = {"Enter"};  // main, entered again
      want.insert(want.end(), kinds.begin() + first, kinds.begin() + last + 1);
      want.push_back("Leave");  // main, left
      EXPECT_EQ(cut.kinds.at(location), want) << location << ": " << conv.output;
      EXPECT_EQ(cut.enters.at(location).size(), b - a + 1) << location;
    }
  }

  std::string dir_, trace_;
};

TEST_F(CutIterations, EveryRankGetsExactlyTheChosenIterations) {
  expectIterations(trace_, 1, 1, ".otf2");
  expectIterations(trace_, 3, 5, ".otf2");
  expectIterations(trace_, 9, 9, ".mtf.xml");  // formats that keep every kind
}

TEST_F(CutIterations, FromAnArchiveWithItsStoredModel) {
  const std::string archive = dir_ + "/wf.mtf";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + trace_ + " -o " + archive).status, 0);
  expectIterations(archive, 2, 4, ".mtf");
}

TEST_F(CutIterations, BadValuesExitTwoAndWriteNothing) {
  const auto [path, count] = outerLoop(trace_);
  const std::string out = dir_ + "/bad.otf2";
  for (const std::string& options : std::vector<std::string>{
           "--begin 5ms --end 2ms", "--begin 12min", "--end 1.5.2s", "--begin 1000000s",
           "--begin +1000000s", "--end 0t", "--begin 1.5t", "--shift-times", "--construct " + path,
           "--iterations 1-2", "--construct " + path + " --iterations 0-2",
           "--construct " + path + " --iterations " + std::to_string(count + 1),
           "--construct 0 --iterations 1", "--construct 99 --iterations 1",
           "--construct " + path + " --iterations 1 --begin 0"}) {
    const auto r = run(mtfProgram() + " convert " + trace_ + " -o " + out + " " + options);
    EXPECT_EQ(r.status, 2) << options << ": " << r.output;
    EXPECT_NE(r.output.find("mtf: "), std::string::npos) << options;
    EXPECT_FALSE(std::filesystem::exists(out)) << options;
  }
}

TEST_F(CutIterations, WindowRelativeToTheStartAndShifted) {
  const std::string out = dir_ + "/rel.mtf";
  const auto conv = run(mtfProgram() + " convert " + trace_ + " -o " + out +
                        " --begin +1ms --end +2ms --shift-times");
  ASSERT_EQ(conv.status, 0) << conv.output;
  const auto r = run(mtfProgram() + " -q dump --events-only " + out, false);
  std::istringstream in(r.output);
  std::string location;
  uint64_t time = 0, last = 0, events = 0;
  std::string line;
  while (std::getline(in, line))
    if (std::istringstream(line) >> location >> time && location[0] == 'L')
      last = std::max(last, time), ++events;
  EXPECT_GT(events, 0u);
  EXPECT_LE(last, 1'000'000u);  // ticks of ns: the window is 1 ms long, from 0
}

}  // namespace
