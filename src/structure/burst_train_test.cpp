#include "structure/burst_train.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace mtf::structure {
namespace {

// A signal of `iterations` iterations after `setup` quiet samples: each iteration a burst
// (of `events` events in its first sample) per entry of `bursts`, each burst followed by a
// quiet gap whose length is drawn uniformly in [gapMin, gapMax].
struct Built {
  std::vector<double> signal, events;
  double meanIteration = 0;
};

Built build(size_t setup, size_t iterations, const std::vector<double>& bursts, size_t gapMin,
            size_t gapMax, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> gap(gapMin, gapMax);
  Built b;
  b.signal.assign(setup, 0.0);
  b.events.assign(setup, 0.0);
  const size_t begin = setup;
  for (size_t it = 0; it < iterations; ++it)
    for (double events : bursts) {
      for (size_t k = 0; k < 3; ++k) b.signal.push_back(1.0), b.events.push_back(k ? 0 : events);
      for (size_t k = gap(rng); k > 0; --k) b.signal.push_back(0.0), b.events.push_back(0.0);
    }
  b.meanIteration = static_cast<double>(b.signal.size() - begin) / static_cast<double>(iterations);
  for (size_t k = 0; k < 50; ++k) b.signal.push_back(0.0), b.events.push_back(0.0);
  return b;
}

TEST(BurstTrain, IterationsOfVaryingLengthGiveTheirMeanPeriod) {
  // Lengths vary from 13 to 203 samples: no autocorrelation peak, but the same work.
  const Built b = build(500, 200, {8}, 10, 200, 3);
  const auto t = findBurstTrain(b.signal, b.events);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->group, 1u);
  EXPECT_GE(t->iterations, 199u);
  EXPECT_LE(t->iterations, 200u);
  EXPECT_EQ(t->first, 500u);
  EXPECT_NEAR(t->period, b.meanIteration, 0.03 * b.meanIteration);
  EXPECT_GE(t->middleStart, t->first);
  EXPECT_LE(t->middleStart + t->middleLength, t->last);
}

TEST(BurstTrain, TwoUnlikeBurstsMakeOneIteration) {
  const Built b = build(0, 100, {4, 20}, 20, 60, 5);
  const auto t = findBurstTrain(b.signal, b.events);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->group, 2u);
  EXPECT_GE(t->iterations, 99u);
  EXPECT_NEAR(t->period, b.meanIteration, 0.05 * b.meanIteration);
}

TEST(BurstTrain, BurstsOfUnlikeWorkAreNoTrain) {
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> events(1, 40), gap(5, 80);
  std::vector<double> signal, counts;
  for (int burst = 0; burst < 100; ++burst) {
    signal.push_back(1.0), counts.push_back(events(rng));
    for (int k = gap(rng); k > 0; --k) signal.push_back(0.0), counts.push_back(0.0);
  }
  const auto t = findBurstTrain(signal, counts);
  EXPECT_FALSE(t && t->iterations >= 10) << t->iterations << " iterations of group " << t->group;
}

TEST(BurstTrain, TooFewBurstsAreNoTrain) {
  const Built b = build(10, 3, {8}, 10, 20, 1);
  EXPECT_FALSE(findBurstTrain(b.signal, b.events));
  const std::vector<double> quiet(1000, 0.0);
  EXPECT_FALSE(findBurstTrain(quiet, quiet));
}

}  // namespace
}  // namespace mtf::structure
