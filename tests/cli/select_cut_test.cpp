// Issue 31, parts A and B together: `mtf convert` with a selection and a cut in one run.
// The selection comes first and the cut cuts the selected trace. The output must hold
// exactly what the selection keeps of the window, worked out from the uncut trace's
// `mtf dump` alone (cut_counts.hpp); the cut reports only the messages between selected
// ranks that cross the window's edges, the selection the message events whose partner it
// did not select. A cut by iterations under a selection that drops events still cuts
// each rank at the same iterations as the cut alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "cli/cut_counts.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

// A point-to-point event of a dump line: its rank (location id = rank, checked by the
// test), partner, communicator and tag.
struct Message {
  bool send = false;
  uint64_t self = 0, partner = 0, comm = 0, tag = 0;
};

bool parseMessage(const std::string& line, Message& m) {
  static const std::regex re(R"(^L(\d+) \d+ Mpi(Send|Recv|Isend|Irecv) (receiver|sender)=(\d+) )"
                             R"(comm=(\d+)\S* tag=(\d+))");
  std::smatch s;
  if (!std::regex_search(line, s, re)) return false;
  m.send = s[3] == "receiver";
  m.self = std::stoull(s[1]), m.partner = std::stoull(s[4]);
  m.comm = std::stoull(s[5]), m.tag = std::stoull(s[6]);
  return true;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

uint64_t timeOf(const std::string& line) {
  return std::stoull(line.substr(line.find(' ') + 1));
}
uint64_t locationOf(const std::string& line) {
  return std::stoull(line.substr(1));
}

// The number before `what` in a report on stderr, 0 if it is not there.
uint64_t reported(const std::string& text, const std::string& what) {
  const size_t at = text.find(" " + what);
  if (at == std::string::npos) return 0;
  const size_t start = text.rfind('\n', at) + 1;
  return std::stoull(text.substr(start, at - start));
}

// The message events of `lines` in [from, to) whose partner, matched per channel in
// order (the k-th send with the k-th receive), is outside it or missing.
uint64_t messagesCrossing(const std::vector<std::string>& lines, uint64_t from, uint64_t to) {
  using Channel = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>;
  std::map<Channel, std::vector<bool>> sends, recvs;  // inside the window, in order
  for (const std::string& line : lines) {
    Message m;
    if (!parseMessage(line, m)) continue;
    const uint64_t t = timeOf(line);
    const Channel c = m.send ? Channel{m.self, m.partner, m.comm, m.tag}
                             : Channel{m.partner, m.self, m.comm, m.tag};
    (m.send ? sends : recvs)[c].push_back(t >= from && t < to);
  }
  uint64_t crossing = 0;
  auto count = [&](const std::vector<bool>& mine, const std::vector<bool>* other) {
    for (size_t k = 0; k < mine.size(); ++k)
      crossing += mine[k] && !(other && k < other->size() && (*other)[k]);
  };
  for (const auto& [c, s] : sends) count(s, recvs.count(c) ? &recvs.at(c) : nullptr);
  for (const auto& [c, r] : recvs) count(r, sends.count(c) ? &sends.at(c) : nullptr);
  return crossing;
}

// Matched messages of `lines` (the k-th send of a channel with its k-th receive) whose
// receive comes after the send: (send time, receive time), by send time.
std::vector<std::pair<uint64_t, uint64_t>> flights(const std::vector<std::string>& lines) {
  using Channel = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>;
  std::map<Channel, std::deque<uint64_t>> sends, recvs;
  for (const std::string& line : lines) {
    Message m;
    if (!parseMessage(line, m)) continue;
    const Channel c = m.send ? Channel{m.self, m.partner, m.comm, m.tag}
                             : Channel{m.partner, m.self, m.comm, m.tag};
    (m.send ? sends : recvs)[c].push_back(timeOf(line));
  }
  std::vector<std::pair<uint64_t, uint64_t>> all;
  for (auto& [c, s] : sends)
    for (size_t k = 0; k < s.size() && k < recvs[c].size(); ++k)
      if (s[k] < recvs[c][k]) all.emplace_back(s[k], recvs[c][k]);
  std::sort(all.begin(), all.end());
  return all;
}

// The receive time of the first flight sent at or after `t`: a window edge there cuts it.
uint64_t edgeCutting(const std::vector<std::pair<uint64_t, uint64_t>>& flights, uint64_t t) {
  for (const auto& [send, recv] : flights)
    if (send >= t) return recv;
  ADD_FAILURE() << "no message sent after " << t;
  return t;
}

class SelectAndCut : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = freshTempDir("select-cut");
    trace_ = dir_ + "/wf.otf2";
    const auto gen = run(genProgram() + " wavefront --ranks 6 --iterations 9 --inner 3 " +
                         "--noise 0.1 -q -o " + trace_);
    ASSERT_EQ(gen.status, 0) << gen.output;
  }

  CommandResult convert(const std::string& in, const std::string& out, const std::string& args) {
    const auto r = run(mtfProgram() + " convert " + in + " -o " + out + " " + args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.output;
    return r;
  }

  std::string dump(const std::string& path, bool eventsOnly = true) {
    const auto r =
        run(mtfProgram() + " -q dump " + (eventsOnly ? "--events-only " : "") + path, false);
    EXPECT_EQ(r.status, 0) << path;
    return r.output;
  }

  std::string dir_, trace_;
};

TEST_F(SelectAndCut, RanksAndATimeWindowKeepWhatBothKeep) {
  // The generator's location i is the process of MPI rank i.
  const std::string defs = dump(trace_, false);
  for (int i = 0; i < 6; ++i)
    ASSERT_NE(defs.find("Location self=" + std::to_string(i) + " name=3(\"Master thread\") " +
                        "type=1 events="),
              std::string::npos);
  ASSERT_NE(defs.find("type=4 paradigm=4 flags=0 count=6 member=0 member=1 member=2 member=3 "
                      "member=4 member=5"),
            std::string::npos);
  const std::vector<std::string> whole = linesOf(dump(trace_));
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (const std::string& line : whole)
    lo = std::min(lo, timeOf(line)), hi = std::max(hi, timeOf(line));

  // What the selection of ranks 1-3 keeps: their events, less the message events whose
  // partner is another rank.
  const std::set<uint64_t> ranks = {1, 2, 3};
  std::vector<std::string> kept;
  uint64_t partnerNotSelected = 0;
  for (const std::string& line : whole) {
    if (!ranks.count(locationOf(line))) continue;
    Message m;
    if (parseMessage(line, m) && !ranks.count(m.partner)) {
      ++partnerNotSelected;
      continue;
    }
    kept.push_back(line);
  }
  // Window edges that each fall between a message's send and its receive.
  const auto inFlight = flights(kept);
  const uint64_t from = edgeCutting(inFlight, lo + (hi - lo) / 3);
  const uint64_t to = edgeCutting(inFlight, lo + (hi - lo) * 2 / 3);
  std::string keptText;
  for (const std::string& line : kept) keptText += line + "\n";
  const ExpectedCut expected = expectedWindow(parseDump(keptText), from, to);
  const uint64_t crossing = messagesCrossing(kept, from, to);
  ASSERT_GT(partnerNotSelected, 0u);
  ASSERT_GT(crossing, 0u);

  const std::string window =
      "--begin " + std::to_string(from) + "t --end " + std::to_string(to) + "t";
  const std::string out = dir_ + "/both.otf2";
  const auto both = convert(trace_, out, "--ranks 1-3 " + window);
  const std::string cutDump = dump(out);
  EXPECT_EQ(countByKind(parseDump(cutDump)), expected.kinds) << both.output;
  EXPECT_EQ(reported(both.output, "messages whose partner lies outside the cut"), crossing)
      << both.output;
  EXPECT_EQ(
      reported(both.output, "message events whose partner is not among the selected locations"),
      partnerNotSelected)
      << both.output;
  for (const std::string& line : linesOf(cutDump))
    EXPECT_TRUE(ranks.count(locationOf(line))) << line;

  // The same as selecting first, into a file, and cutting that.
  const std::string selected = dir_ + "/selected.otf2", twice = dir_ + "/twice.otf2";
  convert(trace_, selected, "--ranks 1-3");
  const auto second = convert(selected, twice, window);
  EXPECT_EQ(dump(twice), cutDump);
  EXPECT_EQ(reported(second.output, "messages whose partner lies outside the cut"), crossing);
}

// The selection drops events before the cut sees them; the cut still goes by each
// event's position in the input, so it cuts where the cut alone cuts.
TEST_F(SelectAndCut, IterationsUnderASelectionThatDropsEvents) {
  const auto model = run(mtfProgram() + " -q model --positions " + trace_, false);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(model.output, m, std::regex(R"((^|\n)(\d+) for i0 = 1 to )")))
      << model.output;
  const std::string iterations = "--construct " + std::string(m[2]) + " --iterations 3-5";
  for (const std::string select : {"--exclude-kinds Enter", "--ranks 1-4 --kinds MpiSend,MpiRecv",
                                   "--exclude-regions 'MPI_*' --region-contents"}) {
    const std::string cut = dir_ + "/cut.otf2", then = dir_ + "/then.otf2",
                      once = dir_ + "/once.otf2";
    convert(trace_, cut, iterations + " --force");
    convert(cut, then, select + " --force");
    convert(trace_, once, select + " " + iterations + " --force");
    const std::string expected = dump(then);
    EXPECT_FALSE(expected.empty()) << select;
    EXPECT_EQ(dump(once), expected) << select;
  }
}

}  // namespace
