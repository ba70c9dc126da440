// Value columns: everything of an event the DAG does not keep (its time, its
// non-structural fields, its attribute values), coded so that regular traces cost
// almost nothing.
//
// Coding 4 and 5 (one ColumnChunk = an independent unit, but for the archive's column dictionary;
// docs/mtf-format.md section 10 is the specification):
//   - Every event has a *context*: a small integer naming where it sits in the DAG (the
//     Enter of signature s, the Leave of call node n, the leaf node n). Its predictor
//     state lives per context, like Pilgrim's/Recorder's per-call-signature timings.
//   - Time: d = time - previous event's time (wrapping, so non-monotonic times work);
//     predicted from the d seen before in the same context (mode 0: the previous one;
//     mode 1, the default: their running average, weight 1/8), or from the chunk's time
//     register once a field has announced a time (time_models.hpp); the residual
//     zigzag(d - prediction) goes into the time planes (below).
//   - Values: each value slot (a field of a context's events) is predicted by one of five
//     models chosen from their past costs (slot_models.hpp); residual
//     zigzag(v - prediction) as a varint into the slot's value stream: its own if it holds
//     32 values or more in the chunk, else the one all other slots share
//     (value_streams.hpp). Doubles are taken as their bit patterns (exact).
//   - Payload = varint(firstTime) varint(eventCount) u8(mode) time-planes values.
//     The time residuals are split into byte planes (all first bytes, then all second
//     bytes, ...) of fixed 8-byte little-endian residuals with trailing zero planes
//     dropped: zero high bytes compress to nothing.
//     time-planes = u8(planes), then per plane u8(coding: 0 the plane's eventCount bytes
//     as they are, 1 Huffman-coded by huffman.hpp, 2 the list of its non-zero bytes by
//     sparse_plane.hpp) and, for codings 1 and 2, varint(code size); then the planes, in
//     order. At most kMaxChunkEvents events.
//   - ColumnChunk::encoded = u8(kCodingMarker) u8(4) u8(flags: 1 = with the archive's
//     column dictionary) varint(payload size) and one zstd frame of the payload (no
//     content size, checksum or dictionary id).
//   - Coding 7 (beside coding 5 in archives of version 9): u8(kCodingMarker) u8(7) and the
//     payload of coding 5 with its time planes and stream sizes left out, its residuals
//     range coded instead, event by event (range_coder.hpp, residual_model.hpp;
//     docs/mtf-format.md 10.11): the writer keeps it for a chunk of at most 8,192 events
//     (columns.cpp) and kRangedTrialPayload bytes that it makes kRangedGainPercent smaller
//     than zstd. Coding 6 (archives of version 8, still read): the same residuals with
//     simpler models, the times first (10.10).
//   - Coding 5 (zstd): u8(5); bit 1 of the mode byte says a varint time unit
//     follows it; predictions are rounded to the GCD of the chunk's deltas so far and the
//     time residuals stored divided by the unit; each value stream may have a unit too
//     (time_models.hpp TimeGrain, value_streams.hpp; docs/mtf-format.md 10.9). Coding 4
//     (archives of version 4, still read) is the same without units.
//   - Coding 3 (archives of version 3, still read): the same, with u8(3), four slot
//     models (no Zero), and one value stream that all slots share.
//   - Coding 2 (archives of version 2, still read): encoded = u8(kCodingMarker) u8(2)
//     varint(payload size) and a raw deflate stream (RFC 1951); values predicted by the
//     slot's previous value only, times by the context only.
//   - Coding 1 (archives of version 1, still read): encoded = varint(payload size) +
//     zlib(payload) (RFC 1950), and time-planes = u8(planes) and the planes as they are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "values/byte_coding.hpp"
#include "values/column_chunk.hpp"
#include "values/ranged_estimate.hpp"
#include "values/rc_probe.hpp"
#include "values/slot_models.hpp"
#include "values/time_models.hpp"
#include "values/value_streams.hpp"
#include "values/zlib_codec.hpp"
#include "values/zstd_codec.hpp"

namespace mtf::values {

// ColumnChunk::encoded of the current coding starts with these two bytes; that of
// coding 1 (archive version 1) starts with the payload size, never 0.
inline constexpr uint8_t kCodingMarker = 0;
inline constexpr uint8_t kColumnCoding = 5;
// Codings 6 and 7: a chunk of coding 5 range coded instead of zstd (range_coder.hpp), no
// flags, no zstd frame. Coding 6 (archives of version 8, still read): times first, each
// residual's tree by the previous one of its stream. Coding 7 (written now, archives of
// version 9): each event's time then its values, a time's tree by the previous time of its
// context, a value's by the previous value of its slot, two-rate probabilities.
inline constexpr uint8_t kFirstRangedCoding = 6;
inline constexpr uint8_t kRangedCoding = 7;
// The last coding this reader knows.
inline constexpr uint8_t kLastCoding = kRangedCoding;
// The oldest coding with a marker (coding 1 has none); codings 2 to 4 are read.
inline constexpr uint8_t kFirstMarkedCoding = 2;
// Codings 2 to 4 hold at most this many events per chunk (the encoder's chunks: 65,536 by
// default, compactor.hpp).
inline constexpr uint64_t kMaxChunkEvents = uint64_t{1} << 22;

// How a time byte plane is coded: as it is, Huffman-coded (huffman.hpp), or as the list
// of its non-zero bytes (sparse_plane.hpp).
enum class PlaneCoding : uint8_t { Raw = 0, Huffman = 1, Sparse = 2 };

// Predictor state of one chunk, indexed by context. An event looks its context up once
// (context()) and then predicts, learns and reads its previous values from that state.
class ColumnPredictor {
 public:
  struct Context {  // 32 bytes
    // Mode 0: the previous delta (sign-extended); mode 1: the running average of the
    // deltas, times 16. Zero before the first delta: both then predict 0. A 128-bit value
    // kept as two 64-bit halves (history()): the per-event step writes and reads them as
    // such, where an __int128 member went through the stack and stalled every event on a
    // 16-byte load of two 8-byte stores.
    int64_t historyLow = 0, historyHigh = 0;
    __int128 history() const {
      return static_cast<__int128>(
          static_cast<unsigned __int128>(static_cast<uint64_t>(historyHigh)) << 64 |
          static_cast<uint64_t>(historyLow));
    }
    void setHistory(__int128 h) {
      historyLow = static_cast<int64_t>(h);
      historyHigh = static_cast<int64_t>(h >> 64);
    }
    // The history, if it fits in 64 bits.
    bool narrow() const { return historyHigh == historyLow >> 63; }
    uint32_t valueOffset = 0;
    uint32_t valueCount = 0;
    bool seenDelta = false;
    bool touched = false;  // used in this chunk (listed in touched_)
    // Coding 7: the bucket of the bit length of the context's last time residual in the
    // chunk (the tree of its next range coded time, residual_model.hpp).
    uint8_t timeBucket = 0;
    // Coding 3: the costs of predicting the time from the context's deltas (low 16
    // bits) and from the location's time register (high 16 bits); time_models.hpp.
    uint32_t timeCosts = 0;
  };
  void reset();
  // The state of context `id` (fresh the first time in a chunk).
  Context& context(uint32_t id) {
    if (id < states_.size() && states_[id].touched) return states_[id];
    return firstUse(id);
  }
  // The predicted time delta of `c` (0 the first time).
  uint64_t predictDelta(const Context& c) const;
  // Learns the actual delta of `c`.
  void learnDelta(Context& c, uint64_t delta) const;
  // The same for one mode, known where the caller is compiled (the encoder's loop).
  static uint64_t predictPrevious(const Context& c) { return static_cast<uint64_t>(c.historyLow); }
  static void learnPrevious(Context& c, uint64_t delta) {
    c.historyLow = static_cast<int64_t>(delta);  // deltas are signed: times may go backwards
    c.historyHigh = c.historyLow >> 63;
    c.seenDelta = true;
  }
  static uint64_t predictAverage(const Context& c) {
    if (const int64_t h = c.historyLow; c.narrow() && small(h, 61))
      return static_cast<uint64_t>((h + 8) >> 4);
    return static_cast<uint64_t>((c.history() + 8) >> 4);
  }
  static void learnAverage(Context& c, uint64_t delta) {
    const int64_t d = static_cast<int64_t>(delta);
    if (const int64_t h = c.historyLow; c.seenDelta && c.narrow() && small(h, 61) && small(d, 57)) {
      c.historyLow = h + (d * 16 - h) / 8;  // averaged()'s 64-bit case
      c.historyHigh = c.historyLow >> 63;
    } else {
      c.setHistory(c.seenDelta ? averaged(c.history(), d) : static_cast<__int128>(d) * 16);
    }
    c.seenDelta = true;
  }
  // The running average (times 16) after `delta`, in exact integer arithmetic. When no
  // step can leave 64 bits (|history| < 2^61, |delta| < 2^57: every real trace), the same
  // is computed in 64-bit arithmetic, with the same result: the 128-bit division took
  // about half of the encoder's cycles (its intermediate values went through the stack).
  static __int128 averaged(__int128 history, int64_t delta) {
    if (const int64_t h = static_cast<int64_t>(history);
        h == history && small(h, 61) && small(delta, 57))
      return h + (delta * 16 - h) / 8;
    return history + (static_cast<__int128>(delta) * 16 - history) / 8;
  }
  // |v| < 2^bits.
  static bool small(int64_t v, unsigned bits) {
    return static_cast<uint64_t>(v) + (uint64_t{1} << bits) < (uint64_t{1} << (bits + 1));
  }
  // How deltas are predicted: 0 = the previous delta of the context; 1 = a running
  // average of the context's deltas (better when durations jitter around a mean).
  void setMode(uint8_t mode) { mode_ = mode; }
  uint8_t mode() const { return mode_; }
  // The previous values of `c` (zeros the first time), `count` slots.
  uint64_t* values(Context& c, size_t count) {
    if (c.valueCount != count) newValueSlots(c, count);
    return pool_.data() + c.valueOffset;
  }
  // Coding 3: the slot models of `c` (slot_models.hpp), `count` slots.
  SlotState* slots(Context& c, size_t count) {
    if (c.valueCount != count) newModelSlots(c, count);
    return slotPool_.data() + c.valueOffset;
  }
  // The slots given out by slots() since the last reset (numbered from 0, in that order).
  size_t slotCount() const { return slotPool_.size(); }

 private:
  Context& firstUse(uint32_t id);
  void newValueSlots(Context& c, size_t count);
  void newModelSlots(Context& c, size_t count);
  std::vector<Context> states_;
  std::vector<uint32_t> touched_;  // contexts used in this chunk, for a cheap reset
  std::vector<uint64_t> pool_;
  std::vector<SlotState> slotPool_;
  uint8_t mode_ = 1;
};

// A finished chunk whose payload is coded but not compressed yet (compressChunk does it,
// possibly on another thread).
struct PendingChunk {
  ColumnChunk chunk;   // everything but `encoded`
  ByteBuffer payload;  // not zero-filled when it grows: every byte is written
  // Coding 7: the chunk range coded (empty if it was not tried: finishRanged);
  // compressChunk keeps it instead of the zstd frame when it is kRangedGainPercent smaller.
  ByteBuffer ranged;
  // The payload's zstd frame at kZstdProbeLevel without a dictionary, where finishRanged
  // made it for a larger chunk (else empty): compressChunk's probe then reuses it.
  ByteBuffer fastFrame;
  // Bench probe (MTF_RC_PROBE): whether the chunk was tried (every chunk is, for the
  // probe), and the variants.
  RcProbeChunk probe;
  // Set by compressChunk: the range coded bytes won against the fast frame already, so the
  // final level's frame was not made (kFinalLevelFloorPercent).
  bool finalLevelSkipped = false;
};
// A chunk is range coded (coding 7) for a trial whenever it holds at most this many events
// and its payload is at most kRangedTrialPayload: the trial costs about 750 instructions an
// event (on mtf-gen's 16 x 30 x 160 wavefront, every chunk tried cost its conversion 67%
// more instructions, for chunks that stay on zstd anyway).
inline constexpr uint64_t kRangedTrialEvents = 8192;
inline constexpr size_t kRangedTrialPayload = size_t{32} << 10;
// A larger chunk is tried where it promises (ColumnEncoder::promisesRangedGain): its estimate
// (ranged_estimate.hpp) is smaller than zstd's fast frame of its payload by a byte per this
// many events (a sixth of a bit an event). Measured on every chunk above 8,192 events of the
// corpus, of PyPOP's ten traces and of mtf-gen's 16 x 30 x 160 wavefront (the fast frame
// minus the estimate; then range coded against zstd, in bits an event): casita-jacobi-gpu
// 0.63 to 1.48, 1.4 to 1.9; PyPOP's EPOCH 0.23 to 0.96, 1.0 to 1.4; the wavefront -0.04 to
// 0.12, 0.5 to 0.7 (stays on zstd: under a bit); opencl-l9 -0.42, 0.3; PyPOP's ImageMagick
// -1.36 to -0.19, -0.2 to 0.6; casita-cloverleaf-openacc -4.1 to -0.8, -3.1 to 0.1;
// par-multisort-omp -1.9 to -1.2, -5.6 to -1.8. The estimate ran 5% to 30% above the range
// coded size.
inline constexpr uint64_t kRangedEstimateEventsPerByte = 48;
// The fast zstd level: compressChunk's probe, and promisesRangedGain's frame (as fast as
// level 3 on the wavefront's payloads, 0.3% smaller).
inline constexpr int kZstdProbeLevel = 7;
// ... and only if it is at least 3% smaller than the zstd frame and saves at least one bit
// per event: a range coded chunk decodes slower, some hundreds of instructions an event
// (mtf-gen's 16 x 30 x 160 wavefront: its chunks of 4,732 jittery events range code 6%
// smaller, 0.7 bits an event, and took `mtf info` 3.7% more instructions for an archive
// 0.07% smaller; on the 17 real traces the bit rule changes no chunk's choice).
inline constexpr unsigned kRangedGainPercent = 3;
// Where the range coded bytes win that way even against 92% of the fast frame, the final
// level's frame is not made: over the corpus's and PyPOP's 304 chunks compressed at level
// 15, it came to 0.852 to 1.04 of the fast frame (0.935 to 1.0 above 40 KB), and no chunk
// that passes this test was won by zstd (casita-jacobi-gpu: 8 of its 10 chunks pass, and
// their level-15 compression was half of its conversion's instructions). On a chunk that
// level 15 shrinks by more than 8%, range coding could then be kept where zstd would have
// been up to 5% smaller.
inline constexpr unsigned kFinalLevelFloorPercent = 92;
// True if `rangedBytes` of coding 7 win (kRangedGainPercent, a bit an event) against a
// zstd chunk of `headerBytes` and kFinalLevelFloorPercent of a fast frame of `fastFrameBytes`.
bool rangedWinsBelowFinalLevel(size_t rangedBytes, size_t headerBytes, size_t fastFrameBytes,
                               uint64_t events);
// The entropy stage of codings 3 and 4: zstd at `level`, with the archive's dictionary if it has
// one. A payload that is mostly noise (a fast probe at level 7 saves under 25%) keeps the
// probe's frame: searching harder costs time and finds next to nothing.
struct ChunkEntropyCoder {
  ZstdCompressor zstd;
  int level = 19;
  const ZstdDictionary* dictionary = nullptr;
};
// Fills pending.chunk.encoded from the payload (kept, to reuse its buffer).
void compressChunk(PendingChunk& pending, ChunkEntropyCoder& coder);
// Bench probe (MTF_RC_PROBE): reports a compressed chunk's probe line, once, when delivered.
inline void reportProbe(const PendingChunk& pending) {
  rcProbeReport(pending.probe, pending.chunk.eventCount, 2 + pending.ranged.size());
}

class ColumnEncoder {
 public:
  explicit ColumnEncoder(uint64_t chunkEvents, uint8_t timeMode = 1)
      : chunkEvents_(chunkEvents == 0 ? 1 : std::min(chunkEvents, kMaxChunkEvents)) {
    predictor_.setMode(timeMode > 1 ? 1 : timeMode);
  }
  void add(uint32_t context, Tick time, const uint64_t* values, size_t count);
  // Adds `n` events at once, the same as add() of each in turn: event i has context
  // contexts[i], time times[i] and counts[i] values, taken in order from `values`.
  void addEvents(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
                 const uint64_t* values, size_t n);
  // The same when the caller knows their number of values (the sum of counts[0, n)).
  void addEvents(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
                 const uint64_t* values, size_t n, size_t valueCount);
  bool full() const { return events_ >= chunkEvents_; }
  bool empty() const { return events_ == 0; }
  // Compresses the events added since the last finish() into a chunk whose firstEvent
  // is `firstEvent`, at zstd level `level`; resets the encoder.
  ColumnChunk finish(uint64_t firstEvent, int level = 19);
  // The same in two steps: codes the payload into `out` (its buffers are reused) and
  // resets the encoder; compressChunk(out) then compresses it.
  void finishPayload(uint64_t firstEvent, PendingChunk& out);
  uint64_t events() const { return events_; }

 private:
  template <int Mode>
  void addRows(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
               const uint64_t* values, size_t n);
  // Inlined into addRows' loop: a call per event cost more than the values' coding.
  [[gnu::always_inline]] inline void putValues(ColumnPredictor::Context& state, Tick time,
                                               const uint64_t* values, size_t count);
  void putBytePlanes(ByteBuffer& out);
  const uint8_t* rangedTimeBuckets();
  void finishRanged(PendingChunk& out, size_t headerBytes, uint64_t payloadBytes);
  bool promisesRangedGain(PendingChunk& out);
  void probeRanged(PendingChunk& out);
  uint64_t divideTimeResiduals();

  uint64_t chunkEvents_;
  uint64_t events_ = 0;
  Tick firstTime_ = 0, previousTime_ = 0, minTime_ = 0, maxTime_ = 0;
  std::vector<uint64_t> timeResiduals_;  // its first events_ entries; the rest is room
  uint64_t residualBits_ = 0;            // the OR of the residuals: how many planes
  ValueStreamWriter valueStreams_;       // the value residuals, by slot (value_streams.hpp)
  ColumnPredictor predictor_;
  TimeRegister register_;
  TimeGrain grain_;
  ByteBuffer planeBytes_;   // the time planes, split (room reused from chunk to chunk)
  ByteBuffer codedPlanes_;  // the Huffman-coded ones
  // Coding 7's trial (and the bench probe): each event's context and value count, kept
  // while the chunk may still be range coded (kRangedTrialEvents), and each event's time
  // tree (rangedTimeBuckets).
  std::vector<uint32_t> rangedContexts_, rangedCounts_;
  std::vector<uint8_t> timeBuckets_;
  RangedEstimate estimate_;                       // promisesRangedGain's (room reused)
  std::unique_ptr<ZstdCompressor> estimateZstd_;  // its fast frames, made at the first
  // finish()'s payload buffer and zstd context, made by its first call and reused (an
  // encoder whose chunks are compressed elsewhere never makes them).
  struct Finishing {
    PendingChunk pending;
    ChunkEntropyCoder coder;
  };
  std::unique_ptr<Finishing> finishing_;
};

// Decodes one chunk; the caller supplies each event's context and value count in order
// (from the DAG expansion). Throws CodingError on a corrupt chunk.
class ColumnDecoder {
 public:
  // `dictionary`: the archive's, if it has one (coding 3 and 4 chunks may need it).
  explicit ColumnDecoder(const ColumnChunk& chunk, const ZstdDictionary* dictionary = nullptr);
  uint64_t eventCount() const { return eventCount_; }
  // Decodes the next event: its time and `count` values into `values`.
  Tick next(uint32_t context, uint64_t* values, size_t count);
  // Decodes the next `n` events at once, the same as next() on each in turn: event i has
  // context contexts[i] and counts[i] values; its time goes to times[i], its values to
  // `values`, event after event.
  void nextEvents(const uint32_t* contexts, const uint32_t* counts, size_t n, Tick* times,
                  uint64_t* values);
  // Events decoded so far (after a CodingError: the index of the event that failed).
  uint64_t decodedEvents() const { return nextTime_; }
  // True once every event and every byte has been consumed.
  bool finished() const;

 private:
  // Inflates the payload; returns the chunk's coding (1 or kColumnCoding).
  uint8_t inflatePayload(const std::vector<uint8_t>& encoded, const ZstdDictionary* dictionary);
  Tick nextTime(ColumnPredictor::Context& state);
  uint64_t rangedTime(ColumnPredictor::Context& state);
  void nextValues(ColumnPredictor::Context& state, Tick time, uint64_t* values, size_t count);
  void readTimePlanes(ByteReader& r, uint8_t coding);
  // The steps of one event, shared by next() and decodeRows (a model is added once);
  // columns_decode.cpp says what the template arguments are.
  template <int Mode, bool UnitOne, bool Registered>
  [[gnu::always_inline]] static inline uint64_t decodeDelta(ColumnPredictor::Context& state,
                                                            uint64_t coded, Tick previous,
                                                            const TimeRegister& timeRegister,
                                                            TimeGrain& grain);
  template <unsigned Models>
  [[gnu::always_inline]] inline void decodeSlotValues(ColumnPredictor::Context& state, Tick time,
                                                      uint64_t* values, size_t count,
                                                      TimeRegister& timeRegister);
  // nextEvents of codings 3 and up, one copy per time prediction mode and per number of
  // slot models (as the encoder's addRows); Ranged: coding 7, each event's time residual
  // read from the range coder when its turn comes.
  template <int Mode, unsigned Models, bool Ranged = false>
  void decodeRows(const uint32_t* contexts, const uint32_t* counts, size_t n, Tick* times,
                  uint64_t* values);
  std::vector<uint8_t> payload_;
  NoZeroFillVector<uint64_t> timeResiduals_;
  size_t nextTime_ = 0;
  ValueStreamReader valueStreams_;
  uint64_t eventCount_ = 0;
  Tick previousTime_ = 0;
  uint8_t coding_ = kColumnCoding;
  uint64_t timeUnit_ = 1;  // coding 7: applied to each time residual as it is decoded
  ColumnPredictor predictor_;
  TimeRegister register_;
  TimeGrain grain_;
};

}  // namespace mtf::values
