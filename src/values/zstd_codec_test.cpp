// zstd_codec.hpp: frames round trip (with and without a dictionary), carry no content
// size, checksum or dictionary id, and the decoder refuses what is not exactly one frame
// of the expected size without writing past it.
#include "values/zstd_codec.hpp"

#define ZDICT_STATIC_LINKING_ONLY
#include <gtest/gtest.h>
#include <zdict.h>

#include <random>
#include <vector>

namespace mtf::values {
namespace {

std::vector<uint8_t> sample(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i % 13 == 0 ? rng() : i % 7);
  return v;
}

std::vector<uint8_t> compressed(const std::vector<uint8_t>& data, int level = 3,
                                const ZstdDictionary* dictionary = nullptr) {
  ZstdCompressor zstd;
  std::vector<uint8_t> out = {0xaa};  // compress appends
  zstd.compress(data.data(), data.size(), level, dictionary, out);
  EXPECT_EQ(out.front(), 0xaa);
  out.erase(out.begin());
  return out;
}

bool decodes(const std::vector<uint8_t>& frame, size_t expected, std::vector<uint8_t>& out,
             const ZstdDictionary* dictionary = nullptr) {
  return zstdDecompress(frame.data(), frame.size(), expected, dictionary, out);
}

TEST(ZstdCodec, RoundTripsAtSeveralLevels) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{300000}}) {
    const std::vector<uint8_t> data = sample(n, 7);
    for (int level : {1, 3, 19}) {
      std::vector<uint8_t> out;
      ASSERT_TRUE(decodes(compressed(data, level), n, out)) << n << " " << level;
      EXPECT_EQ(out, data);
    }
  }
}

TEST(ZstdCodec, FramesHaveNoContentSizeChecksumOrDictionaryId) {
  const std::vector<uint8_t> frame = compressed(sample(5000, 1));
  ASSERT_GE(frame.size(), 6u);
  EXPECT_EQ(frame[0], 0x28);  // magic 0xFD2FB528, little-endian
  EXPECT_EQ(frame[3], 0xfd);
  // Frame header descriptor: content size flag 0 (bits 6-7), single segment 0 (bit 5),
  // checksum 0 (bit 2), dictionary id flag 0 (bits 0-1).
  EXPECT_EQ(frame[4] & 0xe7, 0);
}

TEST(ZstdCodec, RoundTripsWithADictionary) {
  const std::vector<uint8_t> content = sample(4000, 3);
  const ZstdDictionary dictionary(content.data(), content.size(), 19);
  const std::vector<uint8_t> data(content.begin() + 100, content.begin() + 3100);
  const std::vector<uint8_t> frame = compressed(data, 19, &dictionary);
  EXPECT_LT(frame.size(), compressed(data, 19).size());  // the dictionary holds the data
  std::vector<uint8_t> out;
  ASSERT_TRUE(decodes(frame, data.size(), out, &dictionary));
  EXPECT_EQ(out, data);
  // A dictionary for decompression only decodes too; no dictionary does not.
  const ZstdDictionary readOnly(content.data(), content.size());
  EXPECT_TRUE(decodes(frame, data.size(), out, &readOnly));
  EXPECT_EQ(out, data);
  EXPECT_FALSE(decodes(frame, data.size(), out) && out == data);
  // Compressing with a decompression-only dictionary is a programming error.
  ZstdCompressor zstd;
  std::vector<uint8_t> ignored;
  EXPECT_THROW(zstd.compress(data.data(), data.size(), 3, &readOnly, ignored), std::logic_error);
}

TEST(ZstdCodec, RefusesOtherSizesTruncationTrailingBytesAndCorruption) {
  const std::vector<uint8_t> data = sample(20000, 5);
  const std::vector<uint8_t> frame = compressed(data);
  std::vector<uint8_t> out;
  EXPECT_FALSE(decodes(frame, data.size() - 1, out));  // longer than expected
  EXPECT_LE(out.size(), data.size() - 1);              // and not written past it
  EXPECT_FALSE(decodes(frame, data.size() + 1, out));  // shorter than expected
  for (size_t cut : {size_t{1}, size_t{5}, frame.size() / 2, frame.size() - 1}) {
    const std::vector<uint8_t> truncated(frame.begin(), frame.begin() + cut);
    EXPECT_FALSE(decodes(truncated, data.size(), out)) << cut;
  }
  std::vector<uint8_t> trailing = frame;
  trailing.push_back(0);
  EXPECT_FALSE(decodes(trailing, data.size(), out));
  std::vector<uint8_t> twoFrames = frame;
  twoFrames.insert(twoFrames.end(), frame.begin(), frame.end());
  EXPECT_FALSE(decodes(twoFrames, data.size(), out));
  std::vector<uint8_t> badMagic = frame;
  badMagic[0] ^= 1;
  EXPECT_FALSE(decodes(badMagic, data.size(), out));
  // Flipped bytes in the body: refused or decoded to other bytes, never a crash or
  // more than the expected size.
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    std::vector<uint8_t> corrupt = frame;
    corrupt[6 + rng() % (corrupt.size() - 6)] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (decodes(corrupt, data.size(), out)) {
      EXPECT_EQ(out.size(), data.size());
    }
  }
}

TEST(ZstdCodec, TrainingNeedsEnoughSamples) {
  EXPECT_TRUE(trainZstdDictionary({}, 16 * 1024).empty());
  std::vector<std::vector<uint8_t>> samples;
  for (uint32_t i = 0; i < 200; ++i) samples.push_back(sample(2000, i));
  const std::vector<uint8_t> dictionary = trainZstdDictionary(samples, 8 * 1024);
  ASSERT_FALSE(dictionary.empty());
  EXPECT_LE(dictionary.size(), 8u * 1024);
  EXPECT_EQ(dictionary[0], 0x37);  // a zstd dictionary: magic 0xEC30A437
  EXPECT_EQ(dictionary[3], 0xec);
}

std::vector<std::vector<uint8_t>> similarSamples(size_t count) {
  std::vector<std::vector<uint8_t>> samples;
  for (uint32_t i = 0; i < count; ++i) samples.push_back(sample(2000, i));
  return samples;
}

size_t compressedTotal(const std::vector<std::vector<uint8_t>>& samples,
                       const ZstdDictionary* dictionary) {
  size_t total = 0;
  for (const auto& s : samples) total += compressed(s, 3, dictionary).size();
  return total;
}

// Without known parameters, the training is ZDICT_trainFromBuffer's (its search of k), and
// the parameters it found are handed back.
TEST(ZstdCodec, SearchedTrainingIsZdictsDefaultAndReportsItsParameters) {
  const auto samples = similarSamples(200);
  std::vector<uint8_t> joined;
  std::vector<size_t> sizes;
  for (const auto& s : samples) {
    joined.insert(joined.end(), s.begin(), s.end());
    sizes.push_back(s.size());
  }
  std::vector<uint8_t> expected(8 * 1024);
  const size_t n = ZDICT_trainFromBuffer(expected.data(), expected.size(), joined.data(),
                                         sizes.data(), static_cast<unsigned>(sizes.size()));
  ASSERT_FALSE(ZDICT_isError(n));
  expected.resize(n);
  DictionaryTraining training;
  EXPECT_EQ(trainZstdDictionary(samples, 8 * 1024, training), expected);
  EXPECT_TRUE(training.known());
  EXPECT_EQ(training.d, 8u);
}

// With known parameters, one training: a dictionary of the capacity asked that pays on the
// samples it learnt from, as the searched one does.
TEST(ZstdCodec, KnownTrainingGivesADictionaryThatPays) {
  const auto samples = similarSamples(200);
  DictionaryTraining training;
  ASSERT_FALSE(trainZstdDictionary(samples, 16 * 1024, training).empty());
  const DictionaryTraining found = training;
  for (size_t capacity : {size_t{2} * 1024, size_t{8} * 1024}) {
    const std::vector<uint8_t> content = trainZstdDictionary(samples, capacity, training);
    ASSERT_FALSE(content.empty());
    EXPECT_LE(content.size(), capacity);
    EXPECT_EQ(training.k, found.k);  // not searched again
    const ZstdDictionary dictionary(content.data(), content.size(), 3);
    EXPECT_LT(compressedTotal(samples, &dictionary), compressedTotal(samples, nullptr) * 9 / 10);
  }
}

// frame() writes into the compressor's own buffer, which is reused and never zero-filled:
// a small frame after a large one (and a large one after it) must still be exactly the
// frame compress() gives, and decode.
TEST(ZstdCodec, FramesInTheCompressorsBufferAreWholeFrames) {
  ZstdCompressor zstd;
  for (size_t n : {size_t{300000}, size_t{10}, size_t{0}, size_t{5000}, size_t{600000}}) {
    const std::vector<uint8_t> data = sample(n, static_cast<uint32_t>(n));
    for (int level : {3, 15}) {
      const ZstdCompressor::Frame f = zstd.frame(data.data(), data.size(), level, nullptr);
      const std::vector<uint8_t> frame(f.data, f.data + f.size);
      EXPECT_EQ(frame, compressed(data, level)) << n << " bytes at level " << level;
      std::vector<uint8_t> out;
      EXPECT_TRUE(decodes(frame, n, out));
      EXPECT_EQ(out, data);
    }
  }
}

}  // namespace
}  // namespace mtf::values
