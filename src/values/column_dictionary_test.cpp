// column_dictionary.hpp: chunks that repeat each other get a dictionary and decode with
// it; noise and tiny inputs get none; the gate keeps the chunks' order and delivers the
// dictionary before the first chunk compressed with it.
#include "values/column_dictionary.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace mtf::values {
namespace {

constexpr uint64_t kEvents = 2000;

// The values of event i of a location: a sample shared by all locations (`shared`) or
// its own (noise), and a constant. One context, times 10 apart.
void addEvents(ColumnEncoder& encoder, uint32_t location, bool shared) {
  std::mt19937_64 rng(shared ? 1 : 1000 + location);
  for (uint64_t i = 0; i < kEvents; ++i) {
    const uint64_t drawn = rng() & 0xfffff;
    const uint64_t sample = shared && i % 97 == location ? i : drawn;  // nearly all shared
    const uint64_t values[2] = {sample, 5};
    encoder.add(0, 100 + 10 * i, values, 2);
  }
}

struct Delivered {
  std::vector<std::string> order;  // "dictionary" or "chunk <location>"
  std::vector<ColumnChunk> chunks;
  std::shared_ptr<const ZstdDictionary> dictionary;
  size_t payloadBytes = 0;  // coded, before compression
};

// `locations` chunks through a gate (each location's chunk of kEvents events).
// `threads`: the gate's finish() compresses the held chunks on that many threads.
Delivered throughGate(uint32_t locations, bool shared, uint64_t events = kEvents,
                      unsigned threads = 1) {
  Delivered d;
  DictionaryGate gate(
      19,
      [&](LocationId location, ColumnChunk&& chunk) {
        d.order.push_back("chunk " + std::to_string(location));
        d.chunks.push_back(std::move(chunk));
      },
      [&](std::shared_ptr<const ZstdDictionary> dictionary) {
        d.order.push_back("dictionary");
        d.dictionary = std::move(dictionary);
      });
  for (uint32_t l = 0; l < locations; ++l) {
    ColumnEncoder encoder(events);
    if (events == kEvents) {
      addEvents(encoder, l, shared);
    } else {
      const uint64_t values[2] = {l, 5};
      for (uint64_t i = 0; i < events; ++i) encoder.add(0, i, values, 2);
    }
    PendingChunk pending;
    encoder.finishPayload(0, pending);
    d.payloadBytes += pending.payload.size();
    gate.add(l, pending);
  }
  gate.finish(threads);
  return d;
}

bool usesDictionary(const ColumnChunk& chunk) {
  return chunk.encoded.at(2) == 1;
}

void expectDecodes(const ColumnChunk& chunk, uint32_t location, bool shared,
                   const ZstdDictionary* dictionary) {
  ColumnEncoder expected(kEvents);
  addEvents(expected, location, shared);
  const ColumnChunk plain = expected.finish(0);
  ColumnDecoder a(chunk, dictionary), b(plain);
  uint64_t va[2], vb[2];
  for (uint64_t i = 0; i < kEvents; ++i) {
    ASSERT_EQ(a.next(0, va, 2), b.next(0, vb, 2)) << i;
    ASSERT_EQ(va[0], vb[0]) << i;
    ASSERT_EQ(va[1], vb[1]) << i;
  }
  EXPECT_TRUE(a.finished());
}

// 40 chunks of about 10 KiB: between 64 and 256 pieces of 4 KiB, so a first dictionary
// is learnt from 32 of them before the full one.
TEST(ColumnDictionary, SimilarChunksGetOneAndDecodeWithIt) {
  const Delivered d = throughGate(40, true);
  ASSERT_GT(d.payloadBytes, 64 * 4096u);
  ASSERT_LT(d.payloadBytes, 2 * 128 * 4096u - 40 * 4096u);  // fewer than 256 pieces
  ASSERT_TRUE(d.dictionary);
  ASSERT_EQ(d.chunks.size(), 40u);
  ASSERT_EQ(d.order.size(), 41u);
  EXPECT_EQ(d.order.front(), "dictionary");  // before the first chunk that needs it
  for (uint32_t l = 0; l < 40; ++l) {
    EXPECT_EQ(d.order[l + 1], "chunk " + std::to_string(l));  // the order they came in
    EXPECT_TRUE(usesDictionary(d.chunks[l]));
    expectDecodes(d.chunks[l], l, true, d.dictionary.get());
  }
  // Without the dictionary such a chunk cannot be decoded.
  EXPECT_THROW(ColumnDecoder(d.chunks[0], nullptr), CodingError);
}

// Past 256 pieces of 4 KiB a first dictionary is learnt from 128 of them, spread over the
// chunks; similar chunks still get the full one.
TEST(ColumnDictionary, ManySimilarChunksGetOneThroughTheQuickFirstDictionary) {
  const Delivered d = throughGate(400, true);
  ASSERT_GT(d.payloadBytes, 2 * 128 * 4096u);  // the first dictionary is learnt
  ASSERT_TRUE(d.dictionary);
  ASSERT_EQ(d.chunks.size(), 400u);
  EXPECT_EQ(d.order.front(), "dictionary");
  for (uint32_t l : {0u, 199u, 399u}) {
    EXPECT_TRUE(usesDictionary(d.chunks[l]));
    expectDecodes(d.chunks[l], l, true, d.dictionary.get());
  }
}

TEST(ColumnDictionary, NoiseAndTinyInputsGetNone) {
  Delivered d = throughGate(40, false);
  ASSERT_GT(d.payloadBytes, 64 * 4096u);  // the small first dictionary decides
  EXPECT_FALSE(d.dictionary);
  ASSERT_EQ(d.chunks.size(), 40u);
  for (uint32_t l = 0; l < 40; ++l) {
    EXPECT_EQ(d.order[l], "chunk " + std::to_string(l));
    EXPECT_FALSE(usesDictionary(d.chunks[l]));
    expectDecodes(d.chunks[l], l, false, nullptr);
  }
  d = throughGate(3, true, 50);  // a few hundred bytes of payload
  EXPECT_FALSE(d.dictionary);
  EXPECT_EQ(d.chunks.size(), 3u);
  d = throughGate(1, true);  // one chunk has no one to share with
  EXPECT_FALSE(d.dictionary);
  EXPECT_EQ(d.chunks.size(), 1u);
}

// Payloads that all hold the same 48 KiB (noise of 4 bits per byte, so that each payload
// alone compresses a little) and little else: a dictionary of 16 KiB holds a third of what
// they share; a larger one pays more and is chosen.
TEST(ColumnDictionary, CapacityGrowsWhenALargerDictionaryPays) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> shared(48 * 1024);
  for (uint8_t& b : shared) b = static_cast<uint8_t>(rng() & 15);
  std::vector<ByteBuffer> payloads(8);
  for (size_t p = 0; p < payloads.size(); ++p) {
    payloads[p].resize(shared.size() + 64);
    std::copy(shared.begin(), shared.end(), payloads[p].begin());
    for (size_t i = shared.size(); i < payloads[p].size(); ++i)
      payloads[p][i] = static_cast<uint8_t>(rng());
  }
  std::vector<const ByteBuffer*> pointers;
  for (const ByteBuffer& p : payloads) pointers.push_back(&p);
  const std::vector<uint8_t> dictionary = chooseDictionary(pointers, 19);
  EXPECT_GT(dictionary.size(), 16u * 1024);
  EXPECT_LE(dictionary.size(), 64u * 1024);
}

// A small trace: eight payloads of 1.5 KiB that share 1 KiB (the threads of a small
// trace repeat each other). A dictionary of a few KiB pays; one of 16 KiB would not.
TEST(ColumnDictionary, SmallTracesGetASmallOne) {
  std::mt19937_64 rng(11);
  std::vector<uint8_t> shared(1024);
  for (uint8_t& b : shared) b = static_cast<uint8_t>(rng() & 15);
  std::vector<ByteBuffer> payloads(8);
  for (ByteBuffer& p : payloads) {
    p.resize(shared.size() + 512);
    std::copy(shared.begin(), shared.end(), p.begin());
    for (size_t i = shared.size(); i < p.size(); ++i) p[i] = static_cast<uint8_t>(rng() & 15);
  }
  std::vector<const ByteBuffer*> pointers;
  for (const ByteBuffer& p : payloads) pointers.push_back(&p);
  const std::vector<uint8_t> dictionary = chooseDictionary(pointers, 19);
  EXPECT_GT(dictionary.size(), 0u);
  EXPECT_LE(dictionary.size(), 4u * 1024);
}

// A small trace: 16 threads of 200 events, each its own noise of the same kind (jittery
// times, sizes below 200). Against zstd alone a dictionary pays (zstd's tables for such
// small chunks are what it holds); the range coder, which has no tables, codes every chunk
// smaller still, so the dictionary would cost its own bytes for nothing and is not kept.
void addSmallTraceEvents(ColumnEncoder& encoder, uint32_t location, uint64_t events) {
  std::mt19937_64 rng(100 + location);
  Tick time = 1000;
  for (uint64_t i = 0; i < events; ++i) {
    const uint64_t drawn = rng();
    time += 1000 + drawn % 64;
    const uint64_t values[2] = {(drawn >> 20) % 200, 7};
    encoder.add(static_cast<uint32_t>(i % 4), time, values, 2);
  }
}

// The held chunks compressed on several threads: the same chunks, in the same order,
// as on one (with a dictionary, and without: noise).
TEST(ColumnDictionary, HeldChunksCompressedOnThreadsAreTheSame) {
  for (const bool shared : {true, false}) {
    const Delivered one = throughGate(7, shared, kEvents, 1);
    const Delivered three = throughGate(7, shared, kEvents, 3);
    EXPECT_EQ(bool(one.dictionary), shared);
    EXPECT_EQ(one.order, three.order);
    ASSERT_EQ(one.chunks.size(), three.chunks.size());
    for (size_t i = 0; i < one.chunks.size(); ++i)
      EXPECT_EQ(one.chunks[i].encoded, three.chunks[i].encoded) << shared << " " << i;
  }
}

class ColumnDictionaryThreads : public ::testing::TestWithParam<unsigned> {};

TEST_P(ColumnDictionaryThreads, NotKeptWhereTheChunksAreRangeCodedAnyway) {
  constexpr uint32_t kLocations = 16;
  constexpr uint64_t kSmallEvents = 200;
  std::vector<PendingChunk> pendings(kLocations);
  std::vector<const ByteBuffer*> payloads;
  for (uint32_t l = 0; l < kLocations; ++l) {
    ColumnEncoder encoder(kSmallEvents);
    addSmallTraceEvents(encoder, l, kSmallEvents);
    encoder.finishPayload(0, pendings[l]);
    ASSERT_FALSE(pendings[l].ranged.empty());  // within the range coder's trial
    payloads.push_back(&pendings[l].payload);
  }
  ASSERT_FALSE(chooseDictionary(payloads, 19).empty());  // against zstd alone, it pays
  Delivered d;
  DictionaryGate gate(
      19, [&](LocationId, ColumnChunk&& chunk) { d.chunks.push_back(std::move(chunk)); },
      [&](std::shared_ptr<const ZstdDictionary> dictionary) { d.dictionary = dictionary; });
  for (uint32_t l = 0; l < kLocations; ++l) gate.add(l, pendings[l]);
  gate.finish(GetParam());  // judged on several threads too (paysBesideRangeCoding)
  EXPECT_FALSE(d.dictionary);
  ASSERT_EQ(d.chunks.size(), kLocations);
  for (uint32_t l = 0; l < kLocations; ++l) {
    ColumnEncoder expected(kSmallEvents);
    addSmallTraceEvents(expected, l, kSmallEvents);
    const ColumnChunk plain = expected.finish(0);  // coded without a dictionary
    EXPECT_EQ(d.chunks[l].encoded, plain.encoded) << l;
    ColumnDecoder decoder(d.chunks[l], nullptr);
    uint64_t values[2];
    for (uint64_t i = 0; i < kSmallEvents; ++i)
      decoder.next(static_cast<uint32_t>(i % 4), values, 2);
    EXPECT_TRUE(decoder.finished());
  }
}

INSTANTIATE_TEST_SUITE_P(OneAndThree, ColumnDictionaryThreads, ::testing::Values(1u, 3u));

TEST(ColumnDictionary, WithoutADictionarySinkChunksPassStraightOn) {
  std::vector<LocationId> order;
  DictionaryGate gate(
      3, [&](LocationId l, ColumnChunk&&) { order.push_back(l); }, nullptr);
  for (uint32_t l = 0; l < 5; ++l) {
    ColumnEncoder encoder(kEvents);
    addEvents(encoder, l, true);
    PendingChunk pending;
    encoder.finishPayload(0, pending);
    gate.add(l, pending);
    EXPECT_EQ(order.size(), l + 1u);  // delivered at once, not held
  }
  gate.finish();
  EXPECT_EQ(order, (std::vector<LocationId>{0, 1, 2, 3, 4}));
}

}  // namespace
}  // namespace mtf::values
