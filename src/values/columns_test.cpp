// Column coding round trip: random values, extremes, non-monotonic times, corruption.
#include "values/columns.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "values/byte_coding.hpp"
#include "values/chunk_compressor.hpp"
#include "values/column_rows_test_support.hpp"

namespace mtf::values {
namespace {

using namespace test_rows;

TEST(Columns, RandomValuesRoundTrip) {
  std::mt19937_64 rng(42);
  std::vector<Row> rows;
  for (int i = 0; i < 5000; ++i) {
    const uint32_t ctx = static_cast<uint32_t>(rng() % 9);
    rows.push_back({ctx, rng(), std::vector<uint64_t>(ctx % 4)});
    for (uint64_t& v : rows.back().values) v = rng();
  }
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

TEST(Columns, ExtremeAndNonMonotonicValuesRoundTrip) {
  const uint64_t max = ~uint64_t{0};
  std::vector<Row> rows = {{1, max, {0, max}},   {1, 0, {max, 0}}, {3, max, {}},
                           {1, 1, {1, max - 1}}, {3, 0, {}},       {2, max / 2, {max / 2 + 1}},
                           {2, max / 2 + 1, {0}}};
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

TEST(Columns, RegularTimesCostAlmostNothing) {
  std::vector<Row> rows;
  Tick t = 1'000'000;
  for (int i = 0; i < 100000; ++i) {
    t += (i % 3 == 0) ? 1500 : 220;
    rows.push_back({static_cast<uint32_t>(i % 3), t, {4096, static_cast<uint64_t>(i / 3)}});
  }
  ColumnEncoder enc(rows.size());
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  const ColumnChunk chunk = enc.finish(0);
  EXPECT_LT(chunk.encoded.size(), rows.size() / 50);  // under 0.02 bytes per event
  EXPECT_EQ(chunk.minTime, rows.front().time);
  EXPECT_EQ(chunk.maxTime, rows.back().time);
}

// Many events at one timestamp without values leave no time planes: the chunk is a few
// bytes for 65536 events, and must still decode (deep unclosed TAU nesting did this).
TEST(Columns, IdenticalTimesWithoutValuesRoundTrip) {
  std::vector<Row> rows(65536, Row{3, 512, {}});
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

// True if decoding `chunk` as rows of context 1 with one value each fails, at once or on
// the way (a range coded chunk, coding 7, finds a cut in its values as it reads them).
bool refused(const ColumnChunk& chunk, size_t rows) {
  try {
    ColumnDecoder decoder(chunk);
    uint64_t value;
    for (size_t i = 0; i < rows; ++i) decoder.next(1, &value, 1);
    return !decoder.finished();
  } catch (const CodingError&) {
    return true;
  }
}

TEST(Columns, CorruptChunkIsRefused) {
  std::vector<Row> rows;
  for (int i = 0; i < 100; ++i)
    rows.push_back({1, static_cast<Tick>(i * 7), {static_cast<uint64_t>(i)}});
  ColumnEncoder enc(1000);
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  const ColumnChunk good = enc.finish(0);
  for (size_t cut : {size_t{0}, size_t{1}, good.encoded.size() / 2, good.encoded.size() - 1}) {
    ColumnChunk bad = good;
    bad.encoded.resize(cut);
    EXPECT_TRUE(refused(bad, rows.size())) << "cut at " << cut;
  }
  ColumnChunk wrongCount = good;
  wrongCount.eventCount += 1;
  EXPECT_THROW(ColumnDecoder{wrongCount}, CodingError);
}

// How each byte plane of `rows`' times is coded (0 as it is, 1 Huffman-coded, 2 sparse):
// read from the payload's plane header.
std::vector<int> planeCoding(const std::vector<Row>& rows) {
  ColumnEncoder enc(rows.size(), 0);
  for (const Row& r : rows) enc.add(r.context, r.time, nullptr, 0);
  PendingChunk pending;
  enc.finishPayload(0, pending);
  ByteReader r(pending.payload.data(), pending.payload.size());
  r.varint();
  r.varint();
  if (r.byte() & 2) r.varint();  // the time unit
  std::vector<int> codings(r.byte());
  for (int& c : codings)
    if ((c = r.byte()) != 0) r.varint();
  return codings;
}

// A time plane of near-uniform noise is kept as it is, a noisy one Huffman-coded, one of
// nearly all zeros listed sparsely; the chunk decodes to the same times.
TEST(Columns, PlanesAreCodedByTheirEntropy) {
  std::mt19937_64 rng(5);
  std::vector<Row> rows;
  Tick t = 1000;
  for (int i = 0; i < 20000; ++i) {
    t += 40000 + (rng() & 0x3FF);  // residuals of 10 random bits: byte 0 uniform, byte 1 not
    rows.push_back(Row{7, t, {}});
  }
  // The first delta, 40000 and more, needs a third plane, zero but for that one.
  EXPECT_EQ(planeCoding(rows), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

// A plane of low entropy that is not nearly all zeros is kept as it is (zstd codes it).
TEST(Columns, PlaneOfLowButNotNearZeroEntropyIsKeptAsItIs) {
  std::mt19937_64 rng(9);
  std::vector<Row> rows;
  Tick t = 1000;
  for (int i = 0; i < 20000; ++i) {
    t += 40000 + (rng() & 0xFF) + (rng() % 4 == 0 ? 256 : 0);  // byte 1: few values, skewed
    rows.push_back(Row{7, t, {}});
  }
  const std::vector<int> codings = planeCoding(rows);
  ASSERT_GE(codings.size(), 2u);
  EXPECT_EQ(codings[1], 0);
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

// The running average takes a 64-bit shortcut when nothing can overflow: it must give the
// 128-bit result everywhere, at the shortcut's edges and far beyond them.
TEST(Columns, AverageShortcutGivesThe128BitResult) {
  std::mt19937_64 rng(21);
  std::vector<int64_t> deltas = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MAX / 16, INT64_MIN / 16};
  for (int64_t edge : {int64_t{1} << 57, int64_t{1} << 61, int64_t{1} << 62})
    for (int64_t d : {edge - 1, edge, edge + 1, -edge + 1, -edge, -edge - 1}) deltas.push_back(d);
  for (int i = 0; i < 2000; ++i) deltas.push_back(static_cast<int64_t>(rng() >> (rng() % 64)));
  for (int i = 0; i < 2000; ++i) deltas.push_back(-static_cast<int64_t>(rng() >> (rng() % 64)));
  for (const int64_t h64 : deltas) {
    for (const __int128 history : {static_cast<__int128>(h64), static_cast<__int128>(h64) * 16}) {
      ColumnPredictor::Context c;
      c.setHistory(history);
      ASSERT_EQ(ColumnPredictor::predictAverage(c), static_cast<uint64_t>((history + 8) >> 4));
      for (int k = 0; k < 8; ++k) {
        const int64_t d = deltas[rng() % deltas.size()];
        ASSERT_TRUE(ColumnPredictor::averaged(history, d) ==
                    history + (static_cast<__int128>(d) * 16 - history) / 8)
            << "history " << static_cast<int64_t>(history) << " delta " << d;
        ColumnPredictor::Context learned = c;  // the same step on a context's two halves
        learned.seenDelta = true;
        ColumnPredictor::learnAverage(learned, static_cast<uint64_t>(d));
        ASSERT_TRUE(learned.history() == ColumnPredictor::averaged(history, d))
            << "history " << static_cast<int64_t>(history) << " delta " << d;
      }
    }
  }
}

TEST(Columns, VarintsAndZigzag) {
  std::vector<uint8_t> buf;
  const std::vector<uint64_t> values = {0, 1, 127, 128, 300, ~uint64_t{0}, uint64_t{1} << 63};
  for (uint64_t v : values) putVarint(buf, v);
  ByteReader r(buf);
  for (uint64_t v : values) EXPECT_EQ(r.varint(), v);
  EXPECT_TRUE(r.atEnd());
  EXPECT_THROW(r.varint(), CodingError);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX})
    EXPECT_EQ(unzigzag(zigzag(v)), v);
}

// Rows of every kind the coder meets: contexts seen once and often, large context ids,
// 0..5 values, jittered, equal, backward and huge time steps, large and negative values.
std::vector<Row> mixedRows(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  Tick t = 1'000'000;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t pick = rng() % 100;
    const uint32_t ctx =
        pick < 90 ? static_cast<uint32_t>(rng() % 40) : static_cast<uint32_t>(rng() % 5000);
    if (pick < 60)
      t += 100 + ctx * 37 + rng() % 16;
    else if (pick < 70)
      t += 0;
    else if (pick < 75)
      t -= rng() % 1000;
    else if (pick < 77)
      t += rng();
    else
      t += rng() % 100000;
    Row r{ctx, t, std::vector<uint64_t>(ctx % 6)};
    for (size_t v = 0; v < r.values.size(); ++v)
      r.values[v] = pick < 80 ? 4096 * (v + 1) + i / 40 : (pick < 90 ? -(rng() % 300) : rng());
    rows.push_back(std::move(r));
  }
  return rows;
}

// CRC32 of the coded payloads (not compressed: zstd versions may compress differently),
// with their time ranges, of `rows` cut in chunks of `chunkEvents`.
uint32_t payloadCrc(const std::vector<Row>& rows, uint8_t mode, size_t chunkEvents) {
  ColumnEncoder enc(chunkEvents, mode);
  PendingChunk pending;
  std::vector<uint8_t> all;
  for (size_t i = 0; i < rows.size(); ++i) {
    enc.add(rows[i].context, rows[i].time, rows[i].values.data(), rows[i].values.size());
    if (!enc.full() && i + 1 < rows.size()) continue;
    enc.finishPayload(i, pending);
    const ColumnChunk& chunk = pending.chunk;
    for (uint64_t v : {chunk.firstEvent, chunk.eventCount, chunk.firstTime, chunk.lastTime,
                       chunk.minTime, chunk.maxTime})
      putVarint(all, v);
    all.insert(all.end(), pending.payload.begin(), pending.payload.end());
  }
  return crc32Of(all.data(), all.size());
}

// The coded bytes are the archive format: pinned here, so a faster coder must produce
// exactly the same bytes (both time modes, chunks small and large enough for noise planes,
// one encoder reused across chunks). Two pins changed once, on purpose, when near-uniform
// planes began to be stored instead of Huffman-coded; four changed again with column
// coding 2 (a coding byte per plane, noisy planes Huffman-coded), and again with coding 3
// (slot models and the time register: slot_models.hpp, time_models.hpp). All five changed
// once more when the deflate sections, which coding 3 no longer uses, stopped being
// computed: the pins had hashed them with the payload; the payloads themselves are the
// same (their CRCs alone, computed before the change, were the pins). They changed again
// with coding 4 (value streams by slot: value_streams.hpp; the Zero slot model), and with
// coding 5 (the time unit in the header, the units in the stream table).
TEST(Columns, CodedBytesArePinned) {
  const std::vector<Row> rows = mixedRows(11, 150000);
  EXPECT_EQ(payloadCrc(rows, 1, 65536), 2616824812u);
  EXPECT_EQ(payloadCrc(rows, 0, 65536), 7279056u);
  EXPECT_EQ(payloadCrc(rows, 1, 5000), 2269837068u);
  EXPECT_EQ(payloadCrc(rows, 0, 777), 4183124317u);
  EXPECT_EQ(payloadCrc(mixedRows(12, 3000), 1, 1), 3472954275u);
}

// The workers code a chunk exactly like ColumnEncoder does, chunk after chunk, and hand
// them on in order, on one worker or on three.
TEST(Columns, ChunkCompressorCodesLikeTheEncoder) {
  const std::vector<Row> rows = mixedRows(14, 40000);
  for (const unsigned workers : {1u, 3u}) {
    std::vector<ColumnChunk> threaded;
    ChunkCompressor compressor(
        [&](LocationId, ColumnChunk&& c) { threaded.push_back(std::move(c)); }, 0, 6, 8, nullptr,
        workers);
    std::vector<ColumnChunk> direct;
    ColumnEncoder enc(7000, 0);
    RawChunk raw;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      enc.add(r.context, r.time, r.values.data(), r.values.size());
      raw.add(r.context, r.time, r.values.data(), r.values.size());
      if (!enc.full() && i + 1 < rows.size()) continue;
      direct.push_back(enc.finish(raw.firstEvent, 6));
      compressor.submit(0, std::move(raw));
      raw = RawChunk{};
      raw.firstEvent = i + 1;
    }
    compressor.finish();
    ASSERT_EQ(threaded.size(), direct.size());
    for (size_t c = 0; c < direct.size(); ++c) {
      EXPECT_EQ(threaded[c].encoded, direct[c].encoded) << workers << " chunk " << c;
      EXPECT_EQ(threaded[c].firstEvent, direct[c].firstEvent);
      EXPECT_EQ(threaded[c].maxTime, direct[c].maxTime);
    }
  }
}

// With a dictionary gate that decides while chunks still come (more than its 2 MiB of
// payload), three workers give the same chunks, dictionary and order as one: the gate's
// chunks in their turns, the later ones compressed side by side and delivered in order.
TEST(Columns, ChunkCompressorWorkersKeepTheGatesOrder) {
  const std::vector<Row> rows = mixedRows(16, 600000);
  std::vector<std::string> orders[2];
  std::vector<std::vector<uint8_t>> chunks[2];
  size_t beforeFinish[2] = {0, 0};
  for (const unsigned workers : {1u, 3u}) {
    const bool k = workers > 1;
    ChunkCompressor compressor(
        [&](LocationId location, ColumnChunk&& c) {
          orders[k].push_back("chunk " + std::to_string(location));
          chunks[k].push_back(std::move(c.encoded));
        },
        1, 3, 4, [&](std::shared_ptr<const ZstdDictionary>) { orders[k].push_back("dictionary"); },
        workers);
    RawChunk raw;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      raw.add(r.context, r.time, r.values.data(), r.values.size());
      if (raw.size() < 10000 && i + 1 < rows.size()) continue;
      compressor.submit(i / 10000 % 7, std::move(raw));
      raw = RawChunk{};
      raw.firstEvent = i + 1;
    }
    beforeFinish[k] = chunks[k].size();  // delivered before finish(): the gate had decided
    compressor.finish();
  }
  EXPECT_GT(beforeFinish[0], 0u);
  EXPECT_EQ(orders[0], orders[1]);
  EXPECT_EQ(chunks[0], chunks[1]);
}

// Rows added past the room reserved (and with none reserved) are all kept, in order.
TEST(Columns, RawChunkKeepsRowsWhenItGrows) {
  const std::vector<Row> rows = mixedRows(15, 3000);
  for (const uint64_t reserved : {uint64_t{0}, uint64_t{10}}) {
    RawChunk raw;
    raw.reserve(reserved, reserved);
    size_t valueCount = 0;
    for (const Row& r : rows) {
      raw.add(r.context, r.time, r.values.data(), r.values.size());
      valueCount += r.values.size();
    }
    ASSERT_EQ(raw.size(), rows.size());
    ASSERT_EQ(raw.valueCount(), valueCount);
    for (size_t i = 0, v = 0; i < rows.size(); ++i) {
      ASSERT_EQ(raw.contexts[i], rows[i].context);
      ASSERT_EQ(raw.times[i], rows[i].time);
      ASSERT_EQ(raw.valueCounts[i], rows[i].values.size());
      for (const uint64_t value : rows[i].values) ASSERT_EQ(raw.values[v++], value);
    }
    const RawChunk taken = std::move(raw);
    EXPECT_EQ(taken.size(), rows.size());
    EXPECT_EQ(raw.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
    raw.add(1, 2, nullptr, 0);
    EXPECT_EQ(raw.size(), 1u);
  }
}

TEST(Columns, MixedRowsRoundTrip) {
  const std::vector<Row> rows = mixedRows(13, 20000);
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

// Coding 5: the chunk names its coding, and its slots with many values (the counters of
// two contexts, 300 each) read from streams of their own, which must all be read to the end.
TEST(Columns, CodingFiveChunksKeepBusySlotsApart) {
  std::vector<Row> rows;
  for (uint64_t i = 0; i < 600; ++i)
    rows.push_back({static_cast<uint32_t>(i % 2), 1000 * i, {i * i * (1 + i % 2), 5}});
  rows.push_back({7, 700000, {1}});  // a slot of one value: the shared stream
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
  ColumnEncoder enc(rows.size());
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  const ColumnChunk chunk = enc.finish(0);
  ASSERT_GE(chunk.encoded.size(), 2u);
  EXPECT_EQ(chunk.encoded[0], kCodingMarker);
  EXPECT_EQ(chunk.encoded[1], 5);
  ColumnDecoder dec(chunk);
  uint64_t values[2];
  for (size_t i = 0; i + 1 < rows.size(); ++i) dec.next(rows[i].context, values, 2);
  EXPECT_FALSE(dec.finished());  // the last event's value is still unread
  dec.next(7, values, 1);
  EXPECT_TRUE(dec.finished());
}

// The time unit of `rows` as the coded payload states it, and the payload's size.
std::pair<uint64_t, size_t> timeUnitAndSize(const std::vector<Row>& rows) {
  ColumnEncoder enc(rows.size());
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  PendingChunk pending;
  enc.finishPayload(0, pending);
  ByteReader r(pending.payload.data(), pending.payload.size());
  r.varint();
  r.varint();
  return {(r.byte() & 2) != 0 ? r.varint() : 1, pending.payload.size()};
}

// Coding 5: times and values that are all whole microseconds of nanosecond ticks (as in a
// Paraver trace written at us precision) cost what the same trace in microseconds costs.
TEST(Columns, CoarseTimesAndValuesCostWhatTheirUnitsCost) {
  std::mt19937_64 rng(31);
  std::vector<Row> us, ns;
  Tick t = 5000;
  for (int i = 0; i < 20000; ++i) {
    const uint32_t context = static_cast<uint32_t>(rng() % 3);
    t += 40 + context * 100 + rng() % 16 - (i % 97 == 0 ? 200 : 0);  // jitter, steps back
    const uint64_t end = t + 30 + rng() % 8, size = 8 * (rng() % 4);
    us.push_back({context, t, {end, size}});
    ns.push_back({context, t * 1000, {end * 1000, size * 1000}});
  }
  EXPECT_TRUE(sameRows(roundTrip(ns), ns));
  const auto [unitUs, sizeUs] = timeUnitAndSize(us);
  const auto [unitNs, sizeNs] = timeUnitAndSize(ns);
  EXPECT_EQ(unitUs, 1u);
  EXPECT_EQ(unitNs, 1000u);
  // The units in the header and the stream table, and predictions rounded differently.
  EXPECT_LE(sizeNs, sizeUs + sizeUs / 1000);
  // One event off the grain: everything still decodes, the unit is lost for the chunk.
  ns[777].time += 1;
  EXPECT_TRUE(sameRows(roundTrip(ns), ns));
  EXPECT_EQ(timeUnitAndSize(ns).first, 1u);
}

// The rows of one chunk decoded by nextEvents, `block` events per call.
std::vector<Row> roundTripInBlocks(const std::vector<Row>& rows, size_t block) {
  ColumnEncoder enc(rows.size() + 1);
  for (const Row& r : rows) enc.add(r.context, r.time, r.values.data(), r.values.size());
  ColumnDecoder dec(enc.finish(0));
  std::vector<Row> out;
  for (size_t first = 0; first < rows.size(); first += block) {
    const size_t n = std::min(block, rows.size() - first);
    std::vector<uint32_t> contexts, counts;
    size_t valueCount = 0;
    for (size_t i = first; i < first + n; ++i) {
      contexts.push_back(rows[i].context);
      counts.push_back(static_cast<uint32_t>(rows[i].values.size()));
      valueCount += rows[i].values.size();
    }
    std::vector<Tick> times(n);
    std::vector<uint64_t> values(valueCount);
    dec.nextEvents(contexts.data(), counts.data(), n, times.data(), values.data());
    const uint64_t* v = values.data();
    for (size_t i = 0; i < n; v += counts[i], ++i)
      out.push_back({contexts[i], times[i], std::vector<uint64_t>(v, v + counts[i])});
  }
  EXPECT_TRUE(dec.finished());
  return out;
}

// nextEvents, the decoder's bulk loop, runs in phases (a time unit above 1 or 1; the time
// register unset or set by a field that holds a time) and switches between them within a
// call: it decodes what next() decodes, in blocks of any size.
TEST(Columns, BulkDecodingMatchesEventByEvent) {
  std::mt19937_64 rng(77);
  std::vector<Row> rows;
  Tick t = 5000;
  for (int i = 0; i < 3000; ++i) {
    const uint32_t context = static_cast<uint32_t>(rng() % 3);
    t += 40 + context * 100 + rng() % 16;
    // Whole us of ns ticks (a unit of 1000) until event 1500.
    const Tick time = i < 1500 ? t * 1000 : t * 1000 + rng() % 7;
    rows.push_back({context, time, {rng() % 5, 8}});
  }
  // From event 700 a state's end, where the next event begins (Paraver's states tile a
  // thread's timeline): the time register then predicts the times better than the contexts.
  for (size_t i = 700; i + 1 < rows.size(); ++i) rows[i].values[0] = rows[i + 1].time;
  const std::vector<Row> mixed = mixedRows(13, 3000);
  for (const size_t block : {size_t{1}, size_t{7}, size_t{512}, size_t{5000}}) {
    EXPECT_TRUE(sameRows(roundTripInBlocks(rows, block), rows)) << block;
    EXPECT_TRUE(sameRows(roundTripInBlocks(mixed, block), mixed)) << block;
  }
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
}

// A ByteBuffer grows without zero-filling, but keeps what was written when it grows or
// shrinks, and copies like a vector (PendingChunk::payload is one).
TEST(Columns, ByteBufferKeepsWrittenBytes) {
  ByteBuffer buffer;
  buffer.resize(3);
  for (uint8_t i = 0; i < 3; ++i) buffer[i] = static_cast<uint8_t>(10 + i);
  buffer.resize(100000);  // reallocates: the written bytes move along
  EXPECT_EQ(buffer[0], 10);
  EXPECT_EQ(buffer[2], 12);
  buffer.resize(2);
  buffer.push_back(7);
  const ByteBuffer copy = buffer;
  EXPECT_EQ(std::vector<uint8_t>(copy.begin(), copy.end()), (std::vector<uint8_t>{10, 11, 7}));
}

// A string's length is bounded by the bytes after its varint: the length 3 below counts
// its own byte, so reading it would run one byte past the end.
TEST(Columns, ByteReaderStringStaysInsideItsBytes) {
  const std::vector<uint8_t> cut{3, 'a', 'b'};
  ByteReader reader(cut);
  EXPECT_THROW(reader.string(), CodingError);
  const std::vector<uint8_t> whole{2, 'a', 'b'};
  ByteReader complete(whole);
  EXPECT_EQ(complete.string(), "ab");
  EXPECT_TRUE(complete.atEnd());
}

}  // namespace
}  // namespace mtf::values

namespace mtf::values {
namespace {

// Coding 7: a small chunk that range codes 3% smaller than zstd is stored range coded,
// and decodes alike event by event and in bulk.
TEST(Columns, SmallNoisyChunksAreRangeCoded) {
  const std::vector<Row> rows = noisyRows(400, 6);
  const ColumnChunk chunk = encodeRows(rows);
  ASSERT_GE(chunk.encoded.size(), 2u);
  EXPECT_EQ(chunk.encoded[0], kCodingMarker);
  EXPECT_EQ(chunk.encoded[1], kRangedCoding);
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
  ColumnDecoder dec(chunk);
  std::vector<uint32_t> contexts, counts;
  std::vector<uint64_t> expected;
  for (const Row& r : rows) {
    contexts.push_back(r.context);
    counts.push_back(static_cast<uint32_t>(r.values.size()));
    expected.insert(expected.end(), r.values.begin(), r.values.end());
  }
  std::vector<Tick> times(rows.size());
  std::vector<uint64_t> values(expected.size());
  dec.nextEvents(contexts.data(), counts.data(), rows.size(), times.data(), values.data());
  EXPECT_EQ(values, expected);
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(times[i], rows[i].time) << i;
  EXPECT_TRUE(dec.finished());
}

// Coding 7 with everything a chunk may carry: a time unit (times in whole 10s), a slot with
// a stream of its own and a unit (sizes in whole 8s), a field that announces the next time
// (the time register), contexts met once and many times; cut short, it is refused.
TEST(Columns, RangeCodedChunkWithUnitsStreamsAndRegister) {
  std::mt19937_64 rng(12);
  std::vector<Row> rows;
  Tick time = 5000;
  for (size_t i = 0; i < 600; ++i) {
    const Tick next = time + 10 * (20 + rng() % 50);
    const uint32_t ctx = i % 4 == 3 ? static_cast<uint32_t>(100 + i) : static_cast<uint32_t>(i % 4);
    std::vector<uint64_t> values;
    if (ctx == 0) values = {next, 8 * (rng() % 4000)};  // the state's end, a size
    if (ctx == 1) values = {rng() % 3};
    rows.push_back({ctx, time, values});
    time = next;
  }
  const ColumnChunk chunk = encodeRows(rows);
  ASSERT_EQ(chunk.encoded[1], kRangedCoding);
  EXPECT_TRUE(sameRows(roundTrip(rows), rows));
  ColumnChunk cut = chunk;
  cut.encoded.resize(chunk.encoded.size() - 12);
  bool refused = false;
  try {
    ColumnDecoder dec(cut);
    for (const Row& r : rows) {
      std::vector<uint64_t> values(r.values.size());
      dec.next(r.context, values.data(), values.size());
    }
    refused = !dec.finished();
  } catch (const CodingError&) {
    refused = true;
  }
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace mtf::values
