#include "nlr/nlr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <unordered_map>

namespace mtf::nlr {
namespace {

LoopModel recognise(const std::vector<uint32_t>& input, NlrOptions options = {}) {
  Nlr nlr(options);
  for (uint32_t s : input) nlr.push(s);
  return nlr.model({});
}

std::vector<uint32_t> expanded(const LoopModel& m) {
  std::vector<uint32_t> out;
  expand(m, [&](uint32_t s) { out.push_back(s); });
  return out;
}

// A compact description of a model: "a" for symbol 0, "(3:ab)" for a loop.
std::string shape(const LoopModel& m, const std::vector<ElementKey>& seq) {
  std::string s;
  for (ElementKey k : seq) {
    if (isLoop(k))
      s += "(" + std::to_string(countOf(k)) + ":" + shape(m, m.bodies[bodyOf(k)]) + ")";
    else
      s += static_cast<char>('a' + symbolOf(k));
  }
  return s;
}
std::string shape(const LoopModel& m) {
  return shape(m, m.top);
}

std::vector<uint32_t> repeat(const std::vector<uint32_t>& body, int times) {
  std::vector<uint32_t> out;
  for (int i = 0; i < times; ++i) out.insert(out.end(), body.begin(), body.end());
  return out;
}

void append(std::vector<uint32_t>& to, const std::vector<uint32_t>& what) {
  to.insert(to.end(), what.begin(), what.end());
}

TEST(Nlr, TwoCopiesStayThreeMakeALoopAndMoreExtendIt) {
  EXPECT_EQ(shape(recognise({0, 0})), "aa");
  EXPECT_EQ(shape(recognise({0, 0, 0})), "(3:a)");
  EXPECT_EQ(shape(recognise({0, 0, 0, 0, 0})), "(5:a)");
  EXPECT_EQ(shape(recognise({1, 0, 2, 0, 2, 0, 2, 0, 2, 3})), "b(4:ac)d");
}

TEST(Nlr, MinimumRepetitionsIsConfigurable) {
  EXPECT_EQ(shape(recognise({0, 1, 0, 1}, {512, 2})), "(2:ab)");
  EXPECT_EQ(shape(recognise({0, 1, 0, 1, 0, 1}, {512, 4})), "ababab");
}

TEST(Nlr, NestsLoops) {
  // for 5 { for 4 { a } b }
  std::vector<uint32_t> in = repeat(
      [] {
        std::vector<uint32_t> b = repeat({0}, 4);
        b.push_back(1);
        return b;
      }(),
      5);
  const LoopModel m = recognise(in);
  EXPECT_EQ(shape(m), "(5:(4:a)b)");
  EXPECT_EQ(expanded(m), in);
  EXPECT_EQ(printedElements(m), 4u);
  EXPECT_EQ(expandedLength(m), in.size());
}

TEST(Nlr, Figure3ShapeOfTheWavefrontRankZero) {
  // a=allreduce b=barrier c=send1 d=send4 e=recv1 f=recv4
  std::vector<uint32_t> in = {0, 2, 4, 3, 5, 0, 1};
  std::vector<uint32_t> outer = repeat({2, 3}, 160);
  append(outer, repeat({4, 5}, 160));
  append(outer, {2, 4, 3, 5});
  append(in, repeat(outer, 249));
  append(in, {0, 1});
  const LoopModel m = recognise(in);
  EXPECT_EQ(shape(m), "acedfab(249:(160:cd)(160:ef)cedf)ab");
  EXPECT_EQ(expanded(m), in);
}

TEST(Nlr, WindowBoundsTheBodyLength) {
  std::vector<uint32_t> body(40);
  for (uint32_t i = 0; i < body.size(); ++i) body[i] = i;
  const std::vector<uint32_t> in = repeat(body, 5);
  EXPECT_EQ(printedElements(recognise(in, {64, 3})), in.size());  // 3*40 > 64: no loop
  EXPECT_EQ(printedElements(recognise(in, {128, 3})), 41u);
}

// Random sequences with planted nested repetitions and random noise between them.
void plant(std::mt19937_64& rng, int depth, std::vector<uint32_t>& out) {
  std::uniform_int_distribution<int> items(1, 4), coin(0, 3), reps(2, 12);
  std::uniform_int_distribution<uint32_t> noise(0, 24);
  const int n = items(rng);
  for (int i = 0; i < n; ++i) {
    if (depth == 0 || coin(rng) == 0) {
      out.push_back(noise(rng));
      continue;
    }
    std::vector<uint32_t> body;
    plant(rng, depth - 1, body);
    const int r = reps(rng);
    for (int j = 0; j < r; ++j) append(out, body);
  }
}

TEST(Nlr, PropertyExpandingTheModelGivesBackTheInput) {
  std::mt19937_64 rng(20261122);
  const NlrOptions configs[] = {{512, 3}, {32, 3}, {8, 2}, {256, 4}, {3, 3}};
  size_t compressed = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<uint32_t> in;
    plant(rng, 1 + trial % 4, in);
    const NlrOptions& options = configs[trial % 5];
    const LoopModel m = recognise(in, options);
    ASSERT_EQ(expanded(m), in) << "trial " << trial;
    ASSERT_EQ(expandedLength(m), in.size());
    ASSERT_EQ(m.eventsIn, in.size());
    if (printedElements(m) < in.size()) ++compressed;
  }
  EXPECT_GT(compressed, 300u);  // the planted repetitions are found, not just kept
}

// The run table (candidate periods from 16-bit fingerprints) must give exactly the model
// of the previous-occurrence chain, also when fingerprints collide: symbols s * 0x10001
// all have fingerprint 0, so every period is a candidate and only the check on the
// elements decides.
TEST(Nlr, RunTableGivesTheModelOfTheOccurrenceChain) {
  std::mt19937_64 rng(61122);
  const NlrOptions configs[] = {{512, 3}, {32, 3}, {8, 2}, {256, 4}, {3, 3}, {400, 2}, {600, 3}};
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<uint32_t> in;
    plant(rng, 1 + trial % 4, in);
    // Long streams with rare symbols between the repetitions: windows over 128 elements
    // (where NLR takes its candidates from the run table).
    std::uniform_int_distribution<uint32_t> rare(100, 5000);
    while (trial % 2 == 0 && in.size() < 600) {
      in.push_back(rare(rng));
      plant(rng, 1, in);
    }
    if (trial % 3 == 1)
      for (uint32_t& x : in) x = x < 25 ? x * 0x10001u : x;
    if (trial % 3 == 2)
      for (uint32_t& x : in) x = x < 25 && x % 2 == 0 ? x * 0x10001u : x;
    NlrOptions options = configs[trial % 7];
    const LoopModel withTable = recognise(in, options);
    options.periodRuns = false;
    const LoopModel withChain = recognise(in, options);
    ASSERT_EQ(withTable.top, withChain.top) << "trial " << trial;
    ASSERT_EQ(withTable.bodies, withChain.bodies) << "trial " << trial;
    ASSERT_EQ(expanded(withTable), in) << "trial " << trial;
  }
}

// The rules of nlr.hpp written out directly, with no index and no incremental state: after
// each symbol, the reduction with the shortest body (extension first on a tie) until none
// applies, then the oldest elements leave past the window. Quadratic, for tests only.
class NaiveNlr {
 public:
  explicit NaiveNlr(const NlrOptions& options)
      : minReps_(std::max(2u, options.minReps)),
        window_(std::max<size_t>(options.window, minReps_)),
        maxBody_(window_ / minReps_) {}

  void push(uint32_t symbol) {
    live_.push_back(eventKey(symbol));
    while (reduceOnce()) {
    }
    while (live_.size() > window_) {
      model_.top.push_back(live_.front());
      live_.erase(live_.begin());
    }
  }
  LoopModel model() const {
    LoopModel m = model_;
    m.top.insert(m.top.end(), live_.begin(), live_.end());
    return m;
  }

 private:
  bool endsWith(const std::vector<ElementKey>& body, size_t before) const {
    const size_t from = live_.size() - before - body.size();
    return std::equal(body.begin(), body.end(), live_.begin() + static_cast<ptrdiff_t>(from));
  }
  // Body length of the loop that the end of the window extends, or 0.
  size_t extension() const {
    for (size_t k = 1; k < live_.size(); ++k) {
      const ElementKey loop = live_[live_.size() - 1 - k];
      if (isLoop(loop) && countOf(loop) < kMaxIterations &&
          model_.bodies[bodyOf(loop)].size() == k && endsWith(model_.bodies[bodyOf(loop)], 0))
        return k;
    }
    return 0;
  }
  bool reduceOnce() {
    const size_t extended = extension();
    for (size_t k = 1; k <= maxBody_ && k * minReps_ <= live_.size(); ++k) {
      if (extended != 0 && k >= extended) break;
      const std::vector<ElementKey> body(live_.end() - static_cast<ptrdiff_t>(k), live_.end());
      bool copies = true;
      for (unsigned c = 1; c < minReps_ && copies; ++c) copies = endsWith(body, c * k);
      if (!copies) continue;
      live_.resize(live_.size() - k * minReps_);
      live_.push_back(loopKey(intern(body), minReps_));
      return true;
    }
    if (extended == 0) return false;
    live_.resize(live_.size() - extended);
    live_.back() = loopKey(bodyOf(live_.back()), countOf(live_.back()) + 1);
    return true;
  }
  uint32_t intern(const std::vector<ElementKey>& body) {
    const auto found = std::find(model_.bodies.begin(), model_.bodies.end(), body);
    if (found != model_.bodies.end()) return static_cast<uint32_t>(found - model_.bodies.begin());
    model_.bodies.push_back(body);
    return static_cast<uint32_t>(model_.bodies.size() - 1);
  }

  unsigned minReps_;
  size_t window_;
  size_t maxBody_;
  std::vector<ElementKey> live_;
  LoopModel model_;
};

TEST(Nlr, GivesTheModelOfTheNaiveReference) {
  std::mt19937_64 rng(221126);
  const NlrOptions configs[] = {{512, 3}, {32, 3}, {8, 2}, {256, 4}, {3, 3}, {200, 2}, {64, 5}};
  for (int trial = 0; trial < 700; ++trial) {
    std::vector<uint32_t> in;
    plant(rng, 1 + trial % 4, in);
    std::uniform_int_distribution<uint32_t> rare(100, 5000);
    while (trial % 3 == 0 && in.size() < 500) {  // windows over 128 elements: the run table
      in.push_back(rare(rng));
      plant(rng, 1 + trial % 2, in);
    }
    NlrOptions options = configs[trial % 7];
    options.periodRuns = trial % 2 == 0;
    NaiveNlr naive(options);
    for (uint32_t s : in) naive.push(s);
    const LoopModel m = recognise(in, options);
    const LoopModel reference = naive.model();
    ASSERT_EQ(m.top, reference.top) << "trial " << trial;
    ASSERT_EQ(m.bodies, reference.bodies) << "trial " << trial;
  }
}

TEST(Nlr, DeferredCopiesGiveTheModelOfPushingEveryEvent) {
  // A loop on top, then part of one more copy of its body: taken in, not pushed.
  NlrOptions off;
  off.deferCopies = false;
  Nlr deferring, pushing(off);
  for (uint32_t s : repeat({0, 1, 2, 3}, 3)) {
    deferring.push(s);
    pushing.push(s);
  }
  for (uint32_t s : {0u, 1u}) {
    deferring.push(s);
    pushing.push(s);
  }
  EXPECT_EQ(deferring.deferredEvents(), 2u);
  EXPECT_EQ(pushing.deferredEvents(), 0u);
  EXPECT_EQ(deferring.windowSize(), pushing.windowSize());
  EXPECT_EQ(deferring.model({}).top, pushing.model({}).top);
  // A fold whose copies hold the loop on top and part of its body: ((ab)^3 a)^3.
  std::vector<uint32_t> nested;
  for (int i = 0; i < 3; ++i) append(nested, {0, 1, 0, 1, 0, 1, 0});
  EXPECT_EQ(shape(recognise(nested)), "(3:(3:ab)a)");
  EXPECT_EQ(shape(recognise(nested, off)), "(3:(3:ab)a)");

  std::mt19937_64 rng(271126);
  const NlrOptions configs[] = {{512, 3}, {32, 3}, {8, 2}, {256, 4}, {3, 3}, {200, 2}, {64, 5}};
  uint64_t deferred = 0;
  for (int trial = 0; trial < 700; ++trial) {
    std::vector<uint32_t> in;
    plant(rng, 1 + trial % 4, in);
    std::uniform_int_distribution<uint32_t> rare(100, 5000);
    while (trial % 3 == 0 && in.size() < 500) {
      in.push_back(rare(rng));
      plant(rng, 1 + trial % 2, in);
    }
    NlrOptions options = configs[trial % 7];
    options.periodRuns = trial % 2 == 0;
    Nlr a(options);
    options.deferCopies = false;
    Nlr b(options);
    // In spans of varying length; the window compared after each.
    for (size_t at = 0; at < in.size();) {
      const size_t n = std::min<size_t>(in.size() - at, 1 + (at * 7) % 13);
      a.push({in.data() + at, n}, 5001);
      b.push({in.data() + at, n}, 5001);
      at += n;
      deferred += a.deferredEvents();
      ASSERT_EQ(a.windowSize(), b.windowSize()) << "trial " << trial << " at " << at;
    }
    ASSERT_EQ(a.model({}).top, b.model({}).top) << "trial " << trial;
    ASSERT_EQ(a.model({}).bodies, b.model({}).bodies) << "trial " << trial;
  }
  EXPECT_GT(deferred, 0u);
}

TEST(Nlr, DeferredCopiesSeeTheCountOfTheLoopOnTop) {
  // Copies of "ab" pend on top of x (ab)^c, after a loop of body [x, (ab)^4, a]: whether
  // the 'a' after a copy extends that loop depends on c (no at 3, yes at 4), so what a
  // pending copy learnt at one count must not be reused at the next.
  std::vector<uint32_t> in;
  for (int i = 0; i < 4; ++i) {
    in.push_back(2);
    append(in, repeat({0, 1}, 4));
    in.push_back(0);
  }
  in.push_back(3);
  NlrOptions off;
  off.deferCopies = false;
  EXPECT_EQ(shape(recognise(in)), shape(recognise(in, off)));
  EXPECT_EQ(shape(recognise(in)), "(4:c(4:ab)a)d");
  // More copies on top: every count from 3 to 8 against loops of each.
  for (int inner = 4; inner <= 8; ++inner) {
    std::vector<uint32_t> v;
    for (int i = 0; i < 3; ++i) {
      v.push_back(2);
      append(v, repeat({0, 1}, inner));
      v.push_back(0);
    }
    v.push_back(2);
    append(v, repeat({0, 1}, 8));
    v.push_back(0);
    v.push_back(3);
    EXPECT_EQ(shape(recognise(v)), shape(recognise(v, off))) << inner;
  }
}

TEST(Nlr, WorkingStateStaysBoundedOnALongStream) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<uint32_t> noise(0, 50);
  Nlr nlr({128, 3});
  size_t maxWorking = 0;
  for (int block = 0; block < 2000; ++block) {
    for (int i = 0; i < 50; ++i) {
      nlr.push(100);
      nlr.push(101);
    }
    nlr.push(noise(rng));
    ASSERT_LE(nlr.windowSize(), 128u);
    if (block == 200) maxWorking = nlr.workingBytes();
    if (block > 200) {
      ASSERT_LE(nlr.workingBytes(), maxWorking * 2 + 4096) << "block " << block;
    }
  }
  // A regular stream of a million events leaves a model of a few elements.
  Nlr regular({128, 3});
  for (int i = 0; i < 1000000; ++i) regular.push(i % 7 == 6 ? 1 : 0);
  const LoopModel m = regular.model({});
  EXPECT_LE(printedElements(m), 6u);
  EXPECT_EQ(expandedLength(m), 1000000u);
}

TEST(LoopPositions, BehavesLikeAMapUnderRandomInsertionsAndErasures) {
  // Few distinct keys, many operations: clusters form, wrap around and are cut by
  // erasures (backward shift), and the table grows.
  std::mt19937_64 rng(7);
  LoopPositions table;
  std::unordered_map<ElementKey, int64_t> reference;
  for (int step = 0; step < 200000; ++step) {
    const ElementKey key = loopKey(static_cast<uint32_t>(rng() % 97), 3 + rng() % 5);
    if (rng() % 3 == 0) {
      table.erase(key);
      reference.erase(key);
    } else {
      const auto position = static_cast<int64_t>(step);
      table[key] = position;
      reference[key] = position;
    }
    if (step % 1000 == 0) {
      for (const auto& [k, position] : reference) ASSERT_EQ(table[k], position);
    }
  }
  for (const auto& [k, position] : reference) EXPECT_EQ(table[k], position);
  EXPECT_EQ(table[loopKey(1000, 3)], -1);  // absent: inserted as -1
  EXPECT_LE(table.bytes(), 4096 * sizeof(int64_t));
}

}  // namespace
}  // namespace mtf::nlr
