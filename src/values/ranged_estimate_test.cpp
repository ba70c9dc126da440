#include "values/ranged_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "values/column_rows_test_support.hpp"
#include "values/columns.hpp"

namespace mtf::values {
namespace {

using namespace test_rows;

TEST(RangedEstimate, Log2IsWithinAFractionOfABit) {
  for (uint64_t x = 1; x < (uint64_t{1} << 20); x += 1 + x / 64) {
    const double exact = std::log2(static_cast<double>(x)) * 256;
    EXPECT_NEAR(static_cast<double>(log2Q8(x)), exact, 2.5) << x;
  }
  EXPECT_EQ(log2Q8(1), 0u);
  EXPECT_EQ(log2Q8(uint64_t{1} << 40), 40u * 256);
  EXPECT_NEAR(static_cast<double>(log2Q8(~uint64_t{0})), 64.0 * 256, 2.5);
}

uint64_t estimateOf(const std::vector<uint64_t>& v, size_t models, size_t (*modelOf)(size_t)) {
  RangedEstimate estimate;
  estimate.reset(models);
  estimate.addSampled(v.data(), v.size(), modelOf);
  return estimate.bits();
}

// Uniform 16-bit residuals: their bit lengths carry about 2 bits (16 half the time, 15 a
// quarter, ...) and the bits below the leading one 14: about 16 bits each.
TEST(RangedEstimate, UniformResidualsCostTheirBits) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> v(100000);
  for (uint64_t& x : v) x = rng() & 0xFFFF;
  const uint64_t bits = estimateOf(v, 1, [](size_t) -> size_t { return 0; });
  EXPECT_NEAR(static_cast<double>(bits) / 100000, 16.0, 0.1);
}

// Each model its own statistics: two streams of one constant each cost next to nothing,
// the same residuals counted in one model a bit each.
TEST(RangedEstimate, ModelsAreKeptApart) {
  std::vector<uint64_t> v(20000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i & 1;
  EXPECT_LT(estimateOf(v, 2, [](size_t i) -> size_t { return i & 1; }), 200u);
  EXPECT_NEAR(static_cast<double>(estimateOf(v, 1, [](size_t) -> size_t { return 0; })), 20000.0,
              200.0);
  RangedEstimate none;
  none.reset(1);
  EXPECT_EQ(none.bits(), 0u);
}

// Events of 4 values, the first always 0, the other three 12-bit noise: the sample counts
// every slot (every 4th value would see only the zeros), about 9 bits a value on average.
TEST(RangedEstimate, SampleSeesEverySlot) {
  std::mt19937_64 rng(4);
  std::vector<uint64_t> v(40000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 4 == 0 ? 0 : 2048 + rng() % 2048;
  const uint64_t bits = estimateOf(v, 1, [](size_t) -> size_t { return 0; });
  // 3 of 4 values: 11 bits below the leading one plus their length's share.
  EXPECT_NEAR(static_cast<double>(bits) / 40000, 0.75 * 11 + 0.81, 0.1);
}

// Like Extrae's hardware counters: each event reads 8 counters of very different scales,
// each varying by some percent from one reading to the next, at irregular times.
std::vector<Row> counterRows(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(1.0, 0.15);
  std::vector<Row> rows;
  Tick time = 1000;
  for (size_t i = 0; i < n; ++i) {
    time += 2000 + rng() % 60000;
    Row row{0, time, std::vector<uint64_t>(8)};
    for (size_t c = 0; c < 8; ++c) {
      const double scale = std::pow(10.0, 1.0 + 0.6 * static_cast<double>(c));
      row.values[c] = static_cast<uint64_t>(std::max(0.0, scale * noise(rng)));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// Chunks beyond the trial's limits (20,000 events) whose estimates promise the gain are
// range coded for a trial and then stored range coded: Extrae-like counters, and jittery
// times with uniform values (their varints hold about 24 bits for 17 of information, which
// zstd's byte-wise coding cannot take out).
TEST(RangedEstimate, LargeChunksThatPromiseAreRangeCoded) {
  for (const std::vector<Row>& rows : {counterRows(20000, 5), noisyRows(20000, 7)}) {
    const ColumnChunk chunk = encodeRows(rows);
    ASSERT_GE(chunk.encoded.size(), 2u);
    EXPECT_EQ(chunk.encoded[1], kRangedCoding);
    EXPECT_TRUE(sameRows(decodeRows(chunk, rows), rows));
  }
}

// Regular times and values that cycle through 50 numbers: zstd finds the repeats, the
// estimate (bit lengths and bits) does not, so the chunk is not even tried.
TEST(RangedEstimate, LargeChunkZstdCompressesIsNotTried) {
  std::mt19937_64 rng(8);
  std::vector<uint64_t> cycle(50);
  for (uint64_t& v : cycle) v = rng() % (1 << 20);
  std::vector<Row> rows;
  for (size_t i = 0; i < 20000; ++i)
    rows.push_back(
        {0, Tick{1000} * static_cast<Tick>(i + 1), {cycle[i % 50], cycle[(i * 7) % 50]}});
  ColumnEncoder enc(rows.size() + 1);
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  PendingChunk pending;
  enc.finishPayload(0, pending);
  EXPECT_TRUE(pending.ranged.empty());
  EXPECT_FALSE(pending.fastFrame.empty());  // made for the test, reused by compressChunk
  ChunkEntropyCoder coder;
  compressChunk(pending, coder);
  EXPECT_EQ(pending.chunk.encoded[1], kColumnCoding);
  EXPECT_TRUE(sameRows(decodeRows(pending.chunk, rows), rows));
}

// The final level's frame is skipped only where range coding wins against 92% of the fast
// frame (figures of real chunks: casita-jacobi-gpu's of 46,482 events, fast frame 84,358 B,
// range coded 71,451 B, skips it; PyPOP EPOCH's of 52,790 events, 76,704 B and 66,886 B,
// does not: under a bit an event against the floor), and never changes the choice: each
// chunk comes out as the full comparison (the bench probe's path, which makes every frame)
// gives it. The chunks: a compressible payload (a cycle of 50 numbers) given range coded
// bytes of a chosen share of its fast frame.
TEST(RangedEstimate, FinalLevelSkippedOnlyWhereRangeCodingWinsAnyway) {
  EXPECT_TRUE(rangedWinsBelowFinalLevel(71451, 6, 84358, 46482));
  EXPECT_FALSE(rangedWinsBelowFinalLevel(66886, 6, 76704, 52790));
  EXPECT_FALSE(rangedWinsBelowFinalLevel(1000, 6, 1000, 10));  // not 3% below 92%
  std::mt19937_64 rng(8);
  ByteBuffer payload;
  std::vector<uint64_t> cycle(50);
  for (uint64_t& v : cycle) v = rng();
  for (size_t i = 0; i < 4000; ++i) putVarint(payload, cycle[i % 50] + rng() % 256);
  ChunkEntropyCoder coder;
  coder.level = 15;
  const size_t fast =
      coder.zstd.frame(payload.data(), payload.size(), kZstdProbeLevel, nullptr).size;
  for (const unsigned percent : {50, 85, 100}) {
    bool skipped[2];
    std::vector<uint8_t> encoded[2];
    for (const bool full : {false, true}) {
      PendingChunk pending;
      pending.payload = payload;
      pending.chunk.eventCount = 1000;
      pending.ranged.resize(fast * percent / 100, 0x5a);
      pending.probe.probed = full;  // the probe's path: every frame made, then compared
      pending.probe.within = full;
      compressChunk(pending, coder);
      skipped[full] = pending.finalLevelSkipped;
      encoded[full] = pending.chunk.encoded;
    }
    EXPECT_EQ(encoded[0], encoded[1]) << percent;
    EXPECT_EQ(skipped[0], percent <= 85) << percent;
    EXPECT_FALSE(skipped[1]);
    EXPECT_EQ(encoded[0][1], percent <= 85 ? kRangedCoding : kColumnCoding) << percent;
  }
}

}  // namespace
}  // namespace mtf::values
