// The value streams of column codings 4 and 5 (value_streams.hpp) on their own: which slots
// get a stream of their own, the table's bytes, the streams' units (coding 5), reading back,
// and refusing a corrupt table.
#include "values/value_streams.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mtf::values {
namespace {

struct Value {
  uint64_t residual;
  uint32_t slot;
};

ByteBuffer written(const std::vector<Value>& values, size_t slotCount) {
  ValueStreamWriter writer;
  for (const Value& v : values) {
    writer.reserve(1);
    writer.put(v.residual, v.slot);
  }
  ByteBuffer out;
  out.push_back(0xaa);  // bytes before the values: the streams are placed after them
  writer.prepare(slotCount);
  writer.write(out);
  writer.clear();
  EXPECT_EQ(writer.count(), 0u);
  return out;
}

// Slot 0: 40 values (own stream), slot 1: 3 (shared), slot 2: kOwnStreamValues (own),
// slot 3: 5 (shared), interleaved.
std::vector<Value> mixedValues() {
  std::vector<Value> values;
  for (uint32_t i = 0; i < 40; ++i) {
    values.push_back({1000 + i, 0});
    if (i < 3) values.push_back({i, 1});
    if (i < kOwnStreamValues) values.push_back({200 * i, 2});
    if (i < 5) values.push_back({7, 3});
  }
  return values;
}

TEST(ValueStreams, BusySlotsGetStreamsOfTheirOwn) {
  const ByteBuffer out = written(mixedValues(), 4);
  // Slot 0: 1000..1039, two bytes each; slot 2: zigzag(100 i), all multiples of 100: stored
  // divided by its unit 100, as zigzag(i) = 2 i, one byte each.
  const uint64_t own0 = 40 * 2, own2 = kOwnStreamValues;
  ASSERT_GE(out.size(), 8u);
  EXPECT_EQ(out[1], 2 * 2);      // K = 2, the shared stream's unit is 1
  EXPECT_EQ(out[2], 0);          // slot 0, unit 1
  EXPECT_EQ(out[3], own0);       // its size (80 < 128: one byte)
  EXPECT_EQ(out[4], 2 * 1 + 1);  // slot 2 = gap 1 after slot 0, with a unit:
  EXPECT_EQ(out[5], 100);
  EXPECT_EQ(out[6], own2);
  // Then the shared stream in event order: slot 1's and slot 3's values interleaved.
  const size_t sharedAt = 7;
  const std::vector<uint8_t> shared = {0, 7, 1, 7, 2, 7, 7, 7};
  ASSERT_EQ(out.size(), sharedAt + shared.size() + own0 + own2);
  EXPECT_TRUE(std::equal(shared.begin(), shared.end(), out.begin() + sharedAt));
  EXPECT_EQ(out[sharedAt + shared.size() + own0 + 3], 2 * 3);  // slot 2's fourth value
}

TEST(ValueStreams, SharedStreamOfOneUnitIsStoredDivided) {
  // zigzag(-8) = 15, zigzag(24) = 48, zigzag(0) = 0: all multiples of 8 (a size in bytes).
  std::vector<Value> values;
  std::vector<uint8_t> expected = {0xaa, 1, 8};  // K = 0 with unit 8
  for (int i = 0; i < 6; ++i) {                  // 18 non-zero residuals: enough for a unit
    values.insert(values.end(), {{15, 0}, {48, 1}, {0, 0}, {48, 1}});
    expected.insert(expected.end(), {1, 6, 0, 6});
  }
  const ByteBuffer out = written(values, 2);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), expected);
  ValueStreamReader reader;
  reader.parse(out.data(), 1, out.size(), true);
  for (const Value& v : values) EXPECT_EQ(reader.next(out.data(), v.slot), v.residual);
  EXPECT_TRUE(reader.finished());
  // Too few non-zero residuals for a unit to pay: stored as they are.
  values.resize(kUnitResiduals);
  const ByteBuffer few = written(values, 2);
  EXPECT_EQ(few[1], 0);
  EXPECT_EQ(few[2], 15);
}

TEST(ValueStreams, ReadBackInEventOrder) {
  const std::vector<Value> values = mixedValues();
  const ByteBuffer out = written(values, 4);
  ValueStreamReader reader;
  reader.parse(out.data(), 1, out.size(), true);
  for (const Value& v : values) {
    EXPECT_FALSE(reader.finished());
    EXPECT_EQ(reader.next(out.data(), v.slot), v.residual);
  }
  EXPECT_TRUE(reader.finished());
}

TEST(ValueStreams, QuietSlotsShareOneInterleavedStream) {
  const std::vector<Value> values = {{5, 0}, {300, 1}, {6, 0}, {1, 2}};
  const ByteBuffer out = written(values, 3);
  const std::vector<uint8_t> expected = {0xaa, 0, 5, 0xac, 0x02, 6, 1};  // K = 0, varints
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), expected);
  ValueStreamReader reader;
  reader.parse(out.data(), 1, out.size(), true);
  for (const Value& v : values) EXPECT_EQ(reader.next(out.data(), v.slot), v.residual);
  EXPECT_TRUE(reader.finished());
}

TEST(ValueStreams, SingleStreamReadsCodingThreeValues) {
  const std::vector<uint8_t> bytes = {9, 5, 0xac, 0x02};
  ValueStreamReader reader;
  reader.single(1, bytes.size());
  EXPECT_EQ(reader.next(bytes.data(), 0), 5u);
  EXPECT_EQ(reader.next(bytes.data(), 7), 300u);  // every slot reads the one stream
  EXPECT_TRUE(reader.finished());
  EXPECT_THROW(reader.next(bytes.data(), 0), CodingError);
}

TEST(ValueStreams, CorruptTablesAreRefused) {
  ValueStreamReader reader;
  // One own stream of 9 bytes, but only 2 follow.
  const std::vector<uint8_t> tooLong = {1, 0, 9, 1, 2};
  EXPECT_THROW(reader.parse(tooLong.data(), 0, tooLong.size(), false), CodingError);
  // More streams than bytes.
  const std::vector<uint8_t> tooMany = {50, 0};
  EXPECT_THROW(reader.parse(tooMany.data(), 0, tooMany.size(), false), CodingError);
  // A stream ends inside a varint: it is not read past its end (into the next stream).
  // Slot 0's own stream is the last byte, 1; the shared stream the one byte 0x80.
  const std::vector<uint8_t> cut = {1, 0, 1, 0x80, 1};
  reader.parse(cut.data(), 0, cut.size(), false);
  EXPECT_EQ(reader.next(cut.data(), 0), 1u);
  EXPECT_THROW(reader.next(cut.data(), 1), CodingError);
  // Coding 5: a unit below 2 is never written.
  const std::vector<uint8_t> unitOne = {1, 1, 5};
  EXPECT_THROW(reader.parse(unitOne.data(), 0, unitOne.size(), true), CodingError);
}

TEST(ValueStreams, UnreadBytesLeaveTheReaderUnfinished) {
  const ByteBuffer out = written(mixedValues(), 4);
  ValueStreamReader reader;
  reader.parse(out.data(), 1, out.size(), true);
  reader.next(out.data(), 1);  // only the shared stream's first value
  EXPECT_FALSE(reader.finished());
}

}  // namespace
}  // namespace mtf::values
