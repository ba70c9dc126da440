#include "structure/periods.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "structure/autocorrelation.hpp"
#include "structure/morphology.hpp"

namespace mtf::structure {
namespace {

TEST(Autocorrelation, MatchesEquationOne) {
  const std::vector<double> x = {1, 3, 2, 5, 4, 0, 1, 2};
  const std::vector<double> a = autocorrelation(x);
  double mean = 0;
  for (double v : x) mean += v / x.size();
  for (size_t k = 0; k < x.size(); ++k) {
    double direct = 0;
    for (size_t i = 0; i + k < x.size(); ++i) direct += (x[i] - mean) * (x[i + k] - mean);
    EXPECT_NEAR(a[k], direct, 1e-9) << "lag " << k;
  }
}

TEST(Morphology, ClosingMergesNearbyPulses) {
  const std::vector<double> x = {0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0};
  const auto runs = positiveRuns(closing(x, 3));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].first, 2u);
  EXPECT_EQ(runs[0].last, 5u);  // the two pulses and the gap between them
  EXPECT_EQ(runs[1].first, 11u);
  EXPECT_EQ(runs[1].last, 12u);  // a lone pulse keeps its width
}

std::vector<double> pulses(size_t n, size_t period, size_t width) {
  std::vector<double> x(n, 0.0);
  for (size_t i = 0; i < n; ++i) x[i] = (i % period) < width ? 4.0 : 0.0;
  return x;
}

TEST(Periods, FindsThePeriodOfPulses) {
  const auto p = findPeriod(pulses(1000, 50, 10));
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->samples, 50.0, 0.5);
  EXPECT_EQ(p->closingWidth, 0u);
}

TEST(Periods, NoPeriodInNoise) {
  std::vector<double> x(2000);
  uint64_t s = 12345;
  for (double& v : x) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<double>(s >> 40) / static_cast<double>(1ull << 24);
  }
  EXPECT_FALSE(clearPeriod(x));
}

// Two rival periods: equation 3 fails on the raw signal.
TEST(Periods, RivalPeaksAreNotClear) {
  std::vector<double> x(3000);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(2 * M_PI * i / 40.0) + std::sin(2 * M_PI * i / 97.0);
  EXPECT_FALSE(clearPeriod(x));
}

}  // namespace
}  // namespace mtf::structure

namespace mtf::structure {
namespace {

// Pulses every 10 samples, every 5th one `heavier` times higher: a check every 5 iterations.
std::vector<double> withSuperPeriod(double heavier) {
  std::vector<double> x(2000, 0.0);
  for (size_t i = 0; i < x.size(); ++i)
    if (i % 10 < 3) x[i] = (i / 10) % 5 == 0 ? 4.0 * heavier : 4.0;
  return x;
}

TEST(Periods, FundamentalPreferredWhenItPeaksNearlyAsHighAsTheSuperPeriod) {
  // A(50) is the highest peak, A(10) is 96% of it: the fundamental passes the rule.
  const auto p = clearPeriod(withSuperPeriod(1.5));
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->samples, 10.0, 0.5);
}

TEST(Periods, SuperPeriodKeptWhenTheFundamentalPeaksLower) {
  // A(10) is 84% of A(50): the super-period is the clear one.
  const auto p = clearPeriod(withSuperPeriod(2.0));
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->samples, 50.0, 0.5);
}

}  // namespace
}  // namespace mtf::structure
