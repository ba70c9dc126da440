// findStructure on synthetic signals: zones the tracking splits are one zone again.
#include "structure/structure.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace mtf::structure {
namespace {

// 200 iterations of 100 bins (a pulse of 20 bins, 6 events), after 300 quiet bins; the
// iteration `odd` (if any) carries four times the activity: a rare collective.
StructureInput pulses(size_t odd) {
  StructureInput in;
  const size_t n = 300 + 200 * 100 + 300;
  in.grid = TimeGrid{0, 1000, n};
  in.signal.assign(n, 0.0);
  in.events.assign(n, 0.0);
  in.mpi.assign(n, 0.0);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> jitter(-3, 3);
  for (size_t it = 0; it < 200; ++it) {
    const size_t at = 300 + it * 100 + static_cast<size_t>(10 + jitter(rng));
    const double height = it == odd ? 4.0 : 1.0;
    for (size_t k = 0; k < (it == odd ? 60u : 20u); ++k) in.signal[at + k] = height;
    in.events[at] = 6;
  }
  return in;
}

std::vector<const StructureRegion*> periodic(const std::vector<StructureRegion>& regions) {
  std::vector<const StructureRegion*> out;
  for (const auto& r : regions)
    if (r.kind == RegionKind::Periodic) out.push_back(&r);
  return out;
}

TEST(Structure, ARegularLoopIsOneZone) {
  const auto regions = findStructure(pulses(~size_t{0}), StructureOptions{});
  const auto zones = periodic(regions);
  ASSERT_EQ(zones.size(), 1u);
  EXPECT_NEAR(static_cast<double>(zones[0]->iterations), 200, 1);
  EXPECT_NEAR(static_cast<double>(zones[0]->period), 100'000, 2'000);
}

TEST(Structure, OneUnlikeIterationDoesNotSplitTheZone) {
  const auto regions = findStructure(pulses(80), StructureOptions{});
  const auto zones = periodic(regions);
  ASSERT_EQ(zones.size(), 1u) << "the loop split at its unlike iteration";
  EXPECT_NEAR(static_cast<double>(zones[0]->iterations), 200, 1);
  EXPECT_NEAR(static_cast<double>(zones[0]->period), 100'000, 2'000);
}

TEST(Structure, ALoopOfCollectivesIsFoundOnTheMpiSignal) {
  StructureInput in = pulses(~size_t{0});
  in.mpi = in.signal;  // the loop's calls are collectives: no point-to-point call at all
  std::fill(in.signal.begin(), in.signal.end(), 0.0);
  EXPECT_TRUE(periodic(findStructure(in, StructureOptions{})).empty());
  bool usedMpi = false;
  const auto regions = findStructureOrMpi(in, StructureOptions{}, usedMpi);
  EXPECT_TRUE(usedMpi);
  const auto zones = periodic(regions);
  ASSERT_EQ(zones.size(), 1u);
  EXPECT_NEAR(static_cast<double>(zones[0]->iterations), 200, 1);
}

TEST(Structure, TheMpiSignalOnlyWhenTheSignalShowsNoZone) {
  StructureInput in = pulses(~size_t{0});
  in.mpi.assign(in.signal.size(), 1.0);
  bool usedMpi = true;
  EXPECT_EQ(periodic(findStructureOrMpi(in, StructureOptions{}, usedMpi)).size(), 1u);
  EXPECT_FALSE(usedMpi);
}

}  // namespace
}  // namespace mtf::structure
