// Sparse coding of byte planes of nearly all zeros: round trips, the pinned form, and
// refusal of corrupt lists.
#include "values/sparse_plane.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace mtf::values {
namespace {

ByteBuffer encode(const std::vector<uint8_t>& bytes) {
  ByteBuffer out;
  const size_t nonZero = bytes.size() - std::count(bytes.begin(), bytes.end(), 0);
  sparseEncode(bytes.data(), bytes.size(), nonZero, out);
  return out;
}

bool decodes(const ByteBuffer& list, const std::vector<uint8_t>& expected) {
  std::vector<uint8_t> out(expected.size(), 0xAA);
  return sparseDecode(list.data(), list.size(), out.data(), out.size()) && out == expected;
}

TEST(SparsePlane, RoundTrips) {
  std::mt19937 rng(3);
  for (size_t n : {0, 1, 7, 8, 9, 100, 5000, 70001}) {
    for (unsigned oneIn : {1u, 3u, 50u, 100000u}) {
      std::vector<uint8_t> bytes(n, 0);
      for (auto& b : bytes)
        if (rng() % oneIn == 0) b = static_cast<uint8_t>(1 + rng() % 255);
      EXPECT_TRUE(decodes(encode(bytes), bytes)) << n << " " << oneIn;
    }
  }
  std::vector<uint8_t> edges(300, 0);
  edges.front() = 1, edges[7] = 2, edges[8] = 3, edges.back() = 4;
  EXPECT_TRUE(decodes(encode(edges), edges));
}

TEST(SparsePlane, FormIsPinned) {
  std::vector<uint8_t> bytes(200, 0);
  bytes[0] = 5, bytes[3] = 6, bytes[4] = 7, bytes[199] = 9;
  // count 4; gaps 0, 2, 0, 194 (varint: 0xc2 0x01), each followed by its byte.
  EXPECT_EQ(encode(bytes), (ByteBuffer{4, 0, 5, 2, 6, 0, 7, 0xc2, 0x01, 9}));
}

TEST(SparsePlane, RefusesCorruptLists) {
  std::vector<uint8_t> bytes(20, 0);
  bytes[2] = 1, bytes[10] = 2;
  const ByteBuffer good = encode(bytes);  // 2, 2 1, 7 2
  ASSERT_TRUE(decodes(good, bytes));
  const std::vector<ByteBuffer> bad = {
      {},                  // no count
      {3, 2, 1, 7, 2},     // a third byte missing
      {2, 2, 1, 7},        // a value missing
      {2, 2, 1, 7, 2, 0},  // a byte left over
      {2, 2, 0, 7, 2},     // a zero listed
      {2, 2, 1, 16, 2},    // past the end: index 19 + 1 = 20
      {21, 0, 1},          // more bytes listed than the plane has
      {1, 0x80},           // a varint cut short
  };
  for (const ByteBuffer& list : bad) EXPECT_FALSE(decodes(list, bytes)) << list.size();
  ByteBuffer last = {1, 19, 3};  // the last byte of the plane is fine
  std::vector<uint8_t> lastBytes(20, 0);
  lastBytes[19] = 3;
  EXPECT_TRUE(decodes(last, lastBytes));
}

}  // namespace
}  // namespace mtf::values
