// Value streams of column coding 4: where each value slot's residuals sit in the payload.
//
// Codings 1 to 3 interleave the varints of all slots in event order. Coding 4 gives each
// slot that holds many values in a chunk (kOwnStreamValues or more) a stream of its own,
// in which only its residuals follow one another; the other slots share one interleaved
// stream. zstd then sees homogeneous data: the residuals of one hardware counter, one
// message size, one state's end, one after the other (measured on the corpus: Extrae's
// par-multisort-omp -13% of its values, profet-lulesh -8%, par-pi-critical -20%;
// per-slot streams for every slot cost small traces their stream table instead).
//
// Layout (docs/mtf-format.md section 10.8): varint K, then K times (varint slot gap,
// varint size), then the shared stream, then the K own streams in slot order. Slots are
// numbered in the chunk in the order the decoder meets them: the slots of a context, in
// its value order, the first time the context has values; the gap is the slot's number
// minus that of the previous own stream's slot plus one (the first's: its number).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "values/byte_coding.hpp"
#include "values/range_coder.hpp"
#include "values/ranged_estimate.hpp"
#include "values/residual_model.hpp"
#include "values/time_models.hpp"

namespace mtf::values {

// A slot with this many values in a chunk gets its own stream (measured on the corpus:
// 32 and 64 are best; 16 and below pay more table than they save on small traces).
inline constexpr uint32_t kOwnStreamValues = 32;

// Coding 5: a stream gets a unit only if it holds this many non-zero residuals.
inline constexpr uint32_t kUnitResiduals = 16;

// Coding 7 (value_streams.cpp writeRanged): where the range coded form of a chunk goes, with
// the chunk's time residuals, each event's time tree and its count of values (each event's
// time is coded before its values).
struct RangedOutput {
  ByteBuffer* out;
  const uint64_t* times;
  size_t events;
  const uint8_t* timeBuckets;
  const uint32_t* counts;
};

// The encoder's side: the residuals of a chunk in event order with the slot of each,
// laid out as above. Its buffers are reused from chunk to chunk.
class ValueStreamWriter {
 public:
  // Room for the next `n` values.
  void reserve(size_t n) {
    if (residuals_.size() < count_ + n) {
      const size_t size = count_ + n + residuals_.size() / 2 + 1024;
      residuals_.resize(size);
      slots_.resize(size);
    }
  }
  // After reserve(): one value's zigzagged residual and its slot number.
  void put(uint64_t residual, uint32_t slot) {
    residuals_[count_] = residual;
    slots_[count_] = slot;
    ++count_;
  }
  size_t count() const { return count_; }
  // Bench probe: after clear(), the residuals (divided by their units), slots, and each
  // slot's stream (0: the shared one).
  void probeValues(const uint64_t*& values, const uint32_t*& slots, size_t& count,
                   std::vector<uint32_t>& streamOfSlot);
  // A chunk's values are laid out in steps: prepare(), then write() and, for coding 7,
  // estimateRanged() and writeRanged(), in any order, then clear().
  // Divides the values put by their streams' units (`slotCount`: the chunk's slots);
  // returns the bytes of their streams (without the table).
  uint64_t prepare(size_t slotCount);
  // Appends the table and the streams (coding 5) to `out`.
  void write(ByteBuffer& out);
  // The estimate of coding 7's bytes for the chunk (ranged_estimate.hpp), the time residuals
  // `times` of its `events` events included.
  uint64_t estimateRanged(const uint64_t* times, size_t events, RangedEstimate& estimate);
  // Appends the chunk's range coded form (coding 7) to `ranged.out`.
  void writeRanged(const RangedOutput& ranged);
  // Forgets the values put.
  void clear() {
    lastCount_ = count_;
    count_ = 0;
  }

 private:
  void writeTable(size_t slotCount, uint64_t sharedUnit, bool withSizes, ByteBuffer& out) const;
  // Each slot's model in coding 7 into cursor_: its own stream's (1 on), else the shared
  // stream's (0); returns the number of models.
  size_t numberModels();
  NoZeroFillVector<uint64_t> residuals_;
  NoZeroFillVector<uint32_t> slots_;
  size_t count_ = 0;
  size_t lastCount_ = 0;  // count_ at the last clear() (bench probe)
  size_t slotCount_ = 0;  // prepare()'s, for the steps after it
  uint64_t sharedUnit_ = 1, sharedBytes_ = 0, ownBytes_ = 0;  // prepare()'s
  std::vector<uint64_t> slotBytes_;            // per slot: bytes of its varints (scratch)
  std::vector<uint32_t> slotValues_;           // per slot: its values (scratch)
  std::vector<uint64_t> cursor_;               // per slot: where its next varint goes (scratch)
  std::vector<uint64_t> unit_;                 // per slot: its stream's unit (scratch)
  std::vector<uint32_t> nonZero_;              // per slot: its non-zero residuals (scratch)
  std::vector<BucketedResidualModel> models_;  // coding 7: per stream (scratch)
  std::vector<uint8_t> slotBucket_;  // coding 7: per slot, the bucket of its last residual
};

// The decoder's side: a cursor per stream, and which stream each slot reads.
class ValueStreamReader {
 public:
  // Codings 1 to 3: one stream, payload[begin, end).
  void single(size_t begin, size_t end);
  // Coding 4 (5 if `scaled`: with the streams' units): reads the table at
  // payload[begin, end) and places the streams after it.
  void parse(const uint8_t* payload, size_t begin, size_t end, bool scaled);
  // Codings 6 and 7: reads the table (no sizes) at payload[begin, end), then the range
  // coded rest; coding 6: the `events` time residuals into `times` now, the values as they
  // are asked for; coding 7 (`times` null): each time residual by nextRangedTime, then the
  // event's values.
  void parseRanged(const uint8_t* payload, size_t begin, size_t end,
                   NoZeroFillVector<uint64_t>* times, size_t events);
  // Coding 7: the next time residual, coded in tree `bucket`.
  uint64_t nextRangedTime(unsigned bucket);
  // The next varint of slot `slot`; slots are asked for in increasing order of their
  // first use (a slot never met before extends the map).
  uint64_t next(const uint8_t* payload, uint32_t slot) {
    mapUpTo(size_t{slot} + 1);
    return nextMapped(payload, slot);
  }
  // Maps the slots below `count` to their streams (the decoder's loop asks once per event,
  // then reads each value with nextMapped).
  void mapUpTo(size_t count) {
    if (count > streamOfSlot_.size()) [[unlikely]]
      mapSlots(count);
  }
  // next() of a slot that mapUpTo has mapped.
  uint64_t nextMapped(const uint8_t* payload, uint32_t slot) {
    Stream& s = streams_[streamOfSlot_[slot]];
    uint64_t v;
    if (s.position < s.end && payload[s.position] < 0x80) [[likely]] {  // a one-byte varint
      v = payload[s.position++];
    } else if (ranged_) [[unlikely]] {  // codings 6, 7 (their streams are empty: never above)
      v = nextRanged(slot);
    } else {
      ByteReader r(payload + s.position, s.end - s.position);
      v = readVarint(r, s.position);
      s.position += r.position();
    }
    return s.unit == 1 ? v : multiplyZigzag(v, s.unit);
  }
  // True once every stream has been read to its end.
  bool finished() const;
  // Where the shared stream stands (for error messages).
  size_t position() const { return streams_.empty() ? 0 : streams_[0].position; }

 private:
  struct Stream {
    size_t position = 0, end = 0;
    uint64_t unit = 1;  // coding 5: the residuals are stored divided by it
  };
  static uint64_t readVarint(ByteReader& r, size_t base);
  static std::pair<uint64_t, uint64_t> readScaled(ByteReader& r, uint64_t limit, const char* what,
                                                  bool scaled);
  void mapSlots(size_t count);
  void resetMap();
  uint64_t nextRanged(uint32_t slot);
  std::vector<Stream> streams_;         // [0]: the shared stream; then the own ones
  std::vector<uint64_t> ownSlots_;      // the slot of streams_[1 + k]
  std::vector<uint32_t> streamOfSlot_;  // index into streams_
  size_t nextOwn_ = 0;                  // the first own stream not mapped yet
  bool sizes_ = true;                   // the table lists the streams' sizes (not 6, 7)
  std::optional<RangeDecoder> ranged_;  // codings 6, 7
  size_t rangedAt_ = 0;                 // where its bytes start in the payload
  std::vector<ResidualModel> models_;   // coding 6: per stream
  // Coding 7: per stream, the time model, and per slot the bucket of its last residual.
  std::vector<BucketedResidualModel> bucketedModels_;
  BucketedResidualModel timeModel_;
  std::vector<uint8_t> slotBucket_;
  bool bucketed_ = false;  // coding 7
};

}  // namespace mtf::values
