// Huffman coding of byte strings: round trips, the length limit, size against the
// entropy, the pinned coded form, and refusal of corrupt input.
#include "values/huffman.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace mtf::values {
namespace {

ByteBuffer encode(const std::vector<uint8_t>& bytes) {
  ByteBuffer out;
  huffmanEncode(bytes.data(), bytes.size(), countBytes(bytes.data(), bytes.size()), out);
  return out;
}

bool decodes(const ByteBuffer& coded, const std::vector<uint8_t>& expected) {
  std::vector<uint8_t> out(expected.size());
  return huffmanDecode(coded.data(), coded.size(), out.data(), out.size()) && out == expected;
}

// n bytes drawn from a geometric distribution of parameter p (values above 255 wrap).
std::vector<uint8_t> geometric(size_t n, double p, uint32_t seed) {
  std::mt19937 rng(seed);
  std::geometric_distribution<int> g(p);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(g(rng));
  return v;
}

uint64_t kraftUnits(const std::array<uint8_t, 256>& lengths) {
  uint64_t k = 0;
  for (uint8_t l : lengths)
    if (l) k += uint64_t{1} << (kHuffmanMaxBits - l);
  return k;
}

TEST(Huffman, RoundTripsManyDistributions) {
  std::mt19937 rng(7);
  for (size_t n : {1, 2, 3, 5, 7, 100, 4096, 70001}) {
    std::vector<uint8_t> uniform(n), constant(n, 42), two(n);
    for (auto& b : uniform) b = static_cast<uint8_t>(rng());
    for (auto& b : two) b = rng() % 5 == 0 ? 200 : 3;
    for (const auto& bytes : {uniform, constant, two, geometric(n, 0.3, 1), geometric(n, 0.02, 2)})
      EXPECT_TRUE(decodes(encode(bytes), bytes)) << "n " << n;
  }
}

TEST(Huffman, DyadicCountsGetTheirOptimalLengths) {
  ByteCounts counts{};
  counts['a'] = 8, counts['b'] = 4, counts['c'] = 2, counts['d'] = 1, counts['e'] = 1;
  const auto lengths = huffmanLengths(counts);
  EXPECT_EQ(lengths['a'], 1);
  EXPECT_EQ(lengths['b'], 2);
  EXPECT_EQ(lengths['c'], 3);
  EXPECT_EQ(lengths['d'], 4);
  EXPECT_EQ(lengths['e'], 4);
  EXPECT_EQ(lengths['f'], 0);
  EXPECT_EQ(kraftUnits(lengths), uint64_t{1} << kHuffmanMaxBits);
}

TEST(Huffman, LongCodesAreCutToTheLimitAndTheCodeStaysComplete) {
  // Fibonacci counts give an unlimited Huffman tree of depth 25.
  ByteCounts counts{};
  uint32_t a = 1, b = 1;
  std::vector<uint8_t> bytes;
  for (unsigned v = 0; v < 26; ++v) {
    counts[v] = a;
    bytes.insert(bytes.end(), a, static_cast<uint8_t>(v));
    const uint32_t next = a + b;
    a = b;
    b = next;
  }
  const auto lengths = huffmanLengths(counts);
  unsigned longest = 0;
  for (uint8_t l : lengths) longest = std::max<unsigned>(longest, l);
  EXPECT_EQ(longest, kHuffmanMaxBits);
  EXPECT_EQ(kraftUnits(lengths), uint64_t{1} << kHuffmanMaxBits);
  for (unsigned v = 0; v < 26; ++v) EXPECT_GT(lengths[v], 0) << v;
  std::shuffle(bytes.begin(), bytes.end(), std::mt19937(3));
  EXPECT_TRUE(decodes(encode(bytes), bytes));
}

TEST(Huffman, CodesCloseToTheEntropy) {
  const std::vector<uint8_t> bytes = geometric(200000, 0.15, 9);
  const ByteCounts counts = countBytes(bytes.data(), bytes.size());
  const double entropyBytes = entropy256(counts, bytes.size()) / 256.0 * bytes.size() / 8;
  const double coded = static_cast<double>(encode(bytes).size() - kHuffmanTableBytes);
  EXPECT_GT(coded, entropyBytes * 0.999);
  EXPECT_LT(coded, entropyBytes * 1.03);
}

TEST(Huffman, CodedFormIsPinned) {
  const std::string text = "abracadabra";
  const ByteBuffer coded = encode(std::vector<uint8_t>(text.begin(), text.end()));
  ASSERT_EQ(coded.size(), kHuffmanTableBytes + 3);
  // a:1 bit, b and r: 3 bits, c and d: 3 bits (canonical: a=0, b=100, c=101, d=110, r=111).
  EXPECT_EQ(coded['a' / 2], 0x01 << 4 * ('a' % 2));
  EXPECT_EQ(coded['b' / 2], 0x03 << 4 * ('b' % 2) | 0x03 << 4 * ('c' % 2));
  const std::vector<uint8_t> stream(coded.begin() + kHuffmanTableBytes, coded.end());
  // a b r a c a d a b r a, in stream order (each code's first bit first):
  // 0 100 111 0 101 0 110 0 100 111 0, packed least significant bit first.
  EXPECT_EQ(stream, (std::vector<uint8_t>{0x72, 0x35, 0x39}));
}

TEST(Huffman, RefusesInvalidTables) {
  const std::vector<uint8_t> bytes = geometric(5000, 0.2, 4);
  const ByteBuffer good = encode(bytes);
  ASSERT_TRUE(decodes(good, bytes));
  ByteBuffer tooLong = good;
  tooLong[0] = (tooLong[0] & 0xf0) | (kHuffmanMaxBits + 1);
  EXPECT_FALSE(decodes(tooLong, bytes));
  ByteBuffer overFull = good;
  for (size_t i = 0; i < kHuffmanTableBytes; ++i) overFull[i] = 0x11;  // 256 one-bit codes
  EXPECT_FALSE(decodes(overFull, bytes));
  ByteBuffer empty = good;
  std::fill(empty.begin(), empty.begin() + kHuffmanTableBytes, 0);
  EXPECT_FALSE(decodes(empty, bytes));
  EXPECT_FALSE(decodes(ByteBuffer(good.begin(), good.begin() + 100), bytes));
}

TEST(Huffman, RefusesStreamsOfTheWrongLength) {
  const std::vector<uint8_t> bytes = geometric(5000, 0.2, 5);
  const ByteBuffer good = encode(bytes);
  ByteBuffer longer = good;
  longer.push_back(0);
  EXPECT_FALSE(decodes(longer, bytes));
  EXPECT_FALSE(decodes(ByteBuffer(good.begin(), good.end() - 1), bytes));
  std::vector<uint8_t> out(bytes.size() + 50);
  EXPECT_FALSE(huffmanDecode(good.data(), good.size(), out.data(), out.size()));
}

TEST(Huffman, RefusesANonCodeAndDirtyPadding) {
  // An incomplete code: one value with a 1-bit code (0); the bit 1 is no code.
  ByteBuffer coded(kHuffmanTableBytes, 0);
  coded[0] = 0x01;  // value 0: length 1, code 0
  coded.push_back(0x02);
  std::vector<uint8_t> out(2);
  EXPECT_FALSE(huffmanDecode(coded.data(), coded.size(), out.data(), 2));
  coded.back() = 0x00;
  EXPECT_TRUE(huffmanDecode(coded.data(), coded.size(), out.data(), 2));
  coded.back() = 0x80;  // padding bit set after two codes
  EXPECT_FALSE(huffmanDecode(coded.data(), coded.size(), out.data(), 2));
}

// A bit-at-a-time canonical decoder, independent of huffmanDecode's tables: the same
// answer (refusal, or the same bytes) is expected of both.
bool referenceDecode(const ByteBuffer& coded, std::vector<uint8_t>& out) {
  if (coded.size() < kHuffmanTableBytes) return false;
  std::vector<uint8_t> byLength[kHuffmanMaxBits + 1];  // values in canonical order
  for (unsigned b = 0; b < 256; ++b) {
    const unsigned length = (coded[b / 2] >> (4 * (b % 2))) & 15;
    if (length > kHuffmanMaxBits) return false;
    if (length) byLength[length].push_back(static_cast<uint8_t>(b));
  }
  uint64_t kraft = 0;
  for (unsigned l = 1; l <= kHuffmanMaxBits; ++l)
    kraft += byLength[l].size() << (kHuffmanMaxBits - l);
  if (kraft == 0 || kraft > (1u << kHuffmanMaxBits)) return false;
  const uint64_t endBit = (coded.size() - kHuffmanTableBytes) * 8;
  uint64_t bit = 0;
  auto nextBit = [&] {
    const uint64_t at = kHuffmanTableBytes * 8 + bit++;
    return bit > endBit ? 0u : (coded[at / 8] >> (at % 8)) & 1u;
  };
  for (uint8_t& value : out) {
    uint32_t code = 0, first = 0;
    bool found = false;
    for (unsigned l = 1; l <= kHuffmanMaxBits && !found; ++l) {
      code = code << 1 | nextBit();
      if (code - first < byLength[l].size()) value = byLength[l][code - first], found = true;
      first = (first + static_cast<uint32_t>(byLength[l].size())) << 1;
    }
    if (!found || bit > endBit) return false;
  }
  while (bit % 8)
    if (nextBit()) return false;
  return bit == endBit;
}

TEST(Huffman, LongStreamsDecodeAsOneCodeAtATime) {
  // Long streams are decoded two or three codes per lookup: on valid and corrupt input
  // alike, the answer is that of a decoder reading one bit at a time.
  std::mt19937 rng(12);
  for (double p : {0.5, 0.1, 0.01}) {
    const std::vector<uint8_t> bytes = geometric(40000, p, 13);
    const ByteBuffer good = encode(bytes);
    EXPECT_TRUE(decodes(good, bytes));
    int agreed = 0, refused = 0;
    for (int trial = 0; trial < 200; ++trial) {
      ByteBuffer bad = good;
      if (trial % 4 == 0) bad.resize(bad.size() - rng() % 8);
      for (int flips = 1 + rng() % 3; flips > 0; --flips)
        bad[kHuffmanTableBytes + rng() % (bad.size() - kHuffmanTableBytes)] ^=
            static_cast<uint8_t>(1u << rng() % 8);
      std::vector<uint8_t> out(bytes.size()), expected(bytes.size());
      const bool ok = huffmanDecode(bad.data(), bad.size(), out.data(), out.size());
      const bool expectedOk = referenceDecode(bad, expected);
      agreed += ok == expectedOk && (!ok || out == expected);
      refused += !ok;
    }
    EXPECT_EQ(agreed, 200) << "p " << p;
    EXPECT_GT(refused, 50) << "p " << p;
  }
}

TEST(Huffman, LongNoisyStreamsDecode) {
  // Above 6 bits per byte a long stream is decoded one code per lookup (no group table).
  std::mt19937 rng(14);
  std::vector<uint8_t> bytes(40000);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  EXPECT_TRUE(decodes(encode(bytes), bytes));
}

TEST(Huffman, CorruptInputNeverReadsOutOfBounds) {
  // Under the sanitizers, any read past the input or the output would abort.
  const std::vector<uint8_t> bytes = geometric(3000, 0.1, 6);
  const ByteBuffer good = encode(bytes);
  std::mt19937 rng(11);
  std::vector<uint8_t> out(bytes.size());
  int refused = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    ByteBuffer bad(good.begin(), good.begin() + rng() % (good.size() + 1));
    for (int flips = 1 + rng() % 3; flips > 0 && !bad.empty(); --flips)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << rng() % 8);
    if (!huffmanDecode(bad.data(), bad.size(), out.data(), out.size())) ++refused;
  }
  EXPECT_GT(refused, 1500);
}

}  // namespace
}  // namespace mtf::values
