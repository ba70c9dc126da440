// The range coder and the residual model on their own: round trips of random, skewed and
// edge values, the empty stream, and corrupt or truncated input (an error, never a crash).
#include "values/range_coder.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "values/residual_model.hpp"

namespace mtf::values {
namespace {

struct Coded {
  ByteBuffer bytes;
  std::vector<uint64_t> values;
  std::vector<uint32_t> streams;
};

// Codes `values`, value i with the model of stream streams[i].
Coded encode(std::vector<uint64_t> values, std::vector<uint32_t> streams, size_t models) {
  Coded c{{}, std::move(values), std::move(streams)};
  std::vector<ResidualModel> m(models);
  RangeEncoder coder(c.bytes);
  for (size_t i = 0; i < c.values.size(); ++i) m[c.streams[i]].encode(coder, c.values[i]);
  coder.finish();
  return c;
}

// Decodes as many values as were coded from `bytes`; false on an error.
bool decode(const ByteBuffer& bytes, const Coded& c, size_t models, std::vector<uint64_t>& out) {
  std::vector<ResidualModel> m(models);
  RangeDecoder coder(bytes.data(), bytes.size());
  out.clear();
  try {
    for (uint32_t s : c.streams) out.push_back(m[s].decode(coder));
  } catch (const CodingError&) {
    return false;
  }
  return coder.endedWell();
}

void expectRoundTrip(const std::vector<uint64_t>& values, size_t models = 1) {
  std::vector<uint32_t> streams(values.size());
  for (size_t i = 0; i < values.size(); ++i) streams[i] = static_cast<uint32_t>(i % models);
  const Coded c = encode(values, streams, models);
  std::vector<uint64_t> out;
  ASSERT_TRUE(decode(c.bytes, c, models, out)) << values.size() << " values";
  EXPECT_EQ(out, values);
}

TEST(RangeCoder, EmptyStreamIsNoBytes) {
  const Coded c = encode({}, {}, 1);
  EXPECT_TRUE(c.bytes.empty());
  std::vector<uint64_t> out;
  EXPECT_TRUE(decode(c.bytes, c, 1, out));
}

TEST(RangeCoder, EdgeValues) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  expectRoundTrip({0});
  expectRoundTrip({max});
  expectRoundTrip({0, max, 1, max - 1, 2, 3, uint64_t{1} << 63, (uint64_t{1} << 63) - 1, 0});
}

TEST(RangeCoder, RandomValuesOfEveryLength) {
  std::mt19937_64 rng(27);
  std::vector<uint64_t> values;
  for (int i = 0; i < 20000; ++i) values.push_back(rng() >> (rng() % 64));
  expectRoundTrip(values);
  expectRoundTrip(values, 5);
}

TEST(RangeCoder, SkewedValuesCodeSmall) {
  // Nearly all zeros: a long run codes to a few bytes, and carries (long runs of 0xFF
  // in the output) come up with such probabilities.
  std::mt19937_64 rng(5);
  std::vector<uint64_t> values;
  for (int i = 0; i < 100000; ++i) values.push_back(rng() % 1000 == 0 ? rng() % 7 : 0);
  expectRoundTrip(values, 3);
  const Coded c = encode(values, std::vector<uint32_t>(values.size(), 0), 1);
  EXPECT_LT(c.bytes.size(), values.size() / 50);
}

TEST(RangeCoder, AdaptiveAndDirectBits) {
  std::mt19937 rng(9);
  std::vector<int> kinds, bits;
  ByteBuffer bytes;
  {
    RangeEncoder coder(bytes);
    AdaptiveBit p[4];
    for (int i = 0; i < 50000; ++i) {
      const int kind = static_cast<int>(rng() % 5);
      const int bit = kind == 4                                        ? static_cast<int>(rng() % 2)
                      : rng() % 100 < static_cast<uint64_t>(kind) * 30 ? 1
                                                                       : 0;
      kinds.push_back(kind), bits.push_back(bit);
      if (kind == 4)
        coder.encodeDirect(static_cast<uint64_t>(bit), 1);
      else
        coder.encode(p[kind], bit != 0);
    }
    coder.finish();
  }
  RangeDecoder coder(bytes.data(), bytes.size());
  AdaptiveBit p[4];
  for (size_t i = 0; i < kinds.size(); ++i) {
    const int bit = kinds[i] == 4               ? static_cast<int>(coder.decodeDirect(1))
                    : coder.decode(p[kinds[i]]) ? 1
                                                : 0;
    ASSERT_EQ(bit, bits[i]) << i;
  }
  EXPECT_TRUE(coder.endedWell());
}

TEST(RangeCoder, TruncatedOrCorruptInputIsAnError) {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> values;
  for (int i = 0; i < 3000; ++i) values.push_back(rng() % 5000);
  const Coded c = encode(values, std::vector<uint32_t>(values.size(), 0), 1);
  ASSERT_GT(c.bytes.size(), 100u);
  std::vector<uint64_t> out;
  for (size_t cut : {size_t{5}, size_t{50}, c.bytes.size() - 1}) {
    const ByteBuffer truncated(c.bytes.begin(), c.bytes.end() - static_cast<ptrdiff_t>(cut));
    EXPECT_FALSE(decode(truncated, c, 1, out) && out == values) << "cut " << cut;
  }
  ByteBuffer longer = c.bytes;  // more bytes than the 4 zeros the encoder may have dropped
  longer.insert(longer.end(), {1, 2, 3, 4, 5});
  EXPECT_FALSE(decode(longer, c, 1, out));
  // Flipped bytes: an error or other values, never a crash or a hang (the last bytes
  // may only move the number inside the final interval: those would decode alike).
  for (size_t at = 0; at + 5 < c.bytes.size(); at += 7) {
    ByteBuffer bad = c.bytes;
    bad[at] ^= 0x5A;
    EXPECT_FALSE(decode(bad, c, 1, out) && out == values) << "byte " << at;
  }
  // All 0xFF: lengths above 64 come up, and are refused.
  const ByteBuffer ones(64, 0xFF);
  EXPECT_FALSE(decode(ones, c, 1, out));
}

// Coding 7's bits (docs/mtf-format.md 10.11.1): the mean of a fast and a slow estimate.
TEST(MixedBit, FollowsTheDocumentedSteps) {
  MixedBit bit;
  EXPECT_EQ(bit.probability(), 2048u);
  bit.update(false);  // both move half the way to 65535
  EXPECT_EQ(bit.fast, 49151);
  EXPECT_EQ(bit.slow, 49151);
  EXPECT_EQ(bit.probability(), 3071u);
  bit.update(true);  // a third of the way to 0
  EXPECT_EQ(bit.fast, 49151 - (49151 * 21845 + 65535) / 65536);
  for (int i = 0; i < 400; ++i) bit.update(false);
  EXPECT_EQ(bit.probability(), 4065u);  // clamped
  EXPECT_EQ(bit.seen, kMixedSeenMax);
  // After a long run of zeros, a run of ones: the fast estimate turns, the slow one
  // keeps the long-run odds.
  for (int i = 0; i < 20; ++i) bit.update(true);
  EXPECT_LT(bit.fast, 20000);
  EXPECT_GT(bit.slow, 40000);
}

// Coding 7's residual model: the tree chosen by the caller. Values of two kinds (small
// for one context, large for another) interleaved: trees by kind code them smaller than
// one tree for all, and every value comes back.
TEST(BucketedResidualModel, RoundTripsAndTheCallersTreesPay) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> values;
  std::vector<unsigned> buckets;
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  for (uint64_t edge : {uint64_t{0}, max, uint64_t{1}, max - 1, uint64_t{1} << 63})
    values.push_back(edge), buckets.push_back(7);
  for (int i = 0; i < 20000; ++i) {
    const bool large = rng() % 2;
    values.push_back(large ? (uint64_t{1} << 20) + rng() % 4096 : rng() % 4);
    buckets.push_back(large ? 6 : 1);
  }
  auto code = [&](bool byKind) {
    ByteBuffer bytes;
    auto model = std::make_unique<BucketedResidualModel>();
    RangeEncoder coder(bytes);
    for (size_t i = 0; i < values.size(); ++i)
      model->encode(coder, values[i], byKind ? buckets[i] : 0);
    coder.finish();
    return bytes;
  };
  const ByteBuffer byKind = code(true), oneTree = code(false);
  EXPECT_LT(byKind.size() * 100, oneTree.size() * 95) << byKind.size() << " " << oneTree.size();
  auto model = std::make_unique<BucketedResidualModel>();
  RangeDecoder decoder(byKind.data(), byKind.size());
  for (size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(model->decode(decoder, buckets[i]), values[i]) << i;
  EXPECT_TRUE(decoder.endedWell());
}

}  // namespace
}  // namespace mtf::values
