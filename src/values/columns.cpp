#include "values/columns.hpp"

#include <cstdio>
#include <cstring>
#include <numeric>
#include <utility>

#include "values/byte_coding.hpp"
#include "values/huffman.hpp"
#include "values/sparse_plane.hpp"
#include "values/zlib_codec.hpp"

namespace mtf::values {

void ColumnPredictor::reset() {
  for (uint32_t c : touched_) states_[c] = Context{};
  touched_.clear();
  pool_.clear();
  slotPool_.clear();
}

ColumnPredictor::Context& ColumnPredictor::firstUse(uint32_t id) {
  if (id >= states_.size()) states_.resize(size_t{id} + 1 + states_.size() / 2);
  Context& c = states_[id];
  c.touched = true;
  touched_.push_back(id);
  return c;
}

uint64_t ColumnPredictor::predictDelta(const Context& c) const {
  return mode_ == 0 ? predictPrevious(c) : predictAverage(c);
}

void ColumnPredictor::learnDelta(Context& c, uint64_t delta) const {
  mode_ == 0 ? learnPrevious(c, delta) : learnAverage(c, delta);
}

// A context always carries the same number of values (it has one signature); a new count
// (only possible in a corrupt file) simply gets fresh slots.
void ColumnPredictor::newValueSlots(Context& c, size_t count) {
  c.valueOffset = static_cast<uint32_t>(pool_.size());
  c.valueCount = static_cast<uint32_t>(count);
  pool_.resize(pool_.size() + count, 0);
}

void ColumnPredictor::newModelSlots(Context& c, size_t count) {
  c.valueOffset = static_cast<uint32_t>(slotPool_.size());
  c.valueCount = static_cast<uint32_t>(count);
  slotPool_.resize(slotPool_.size() + count);
}

void ColumnEncoder::add(uint32_t context, Tick time, const uint64_t* values, size_t count) {
  const auto count32 = static_cast<uint32_t>(count);
  addEvents(&context, &time, &count32, values, 1);
}

void ColumnEncoder::addEvents(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
                              const uint64_t* values, size_t n) {
  uint64_t valueCount = 0;
  for (size_t i = 0; i < n; ++i) valueCount += counts[i];
  addEvents(contexts, times, counts, values, n, valueCount);
}

void ColumnEncoder::addEvents(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
                              const uint64_t* values, size_t n, size_t valueCount) {
  if (n == 0) return;
  if (events_ == 0) {
    firstTime_ = previousTime_ = minTime_ = maxTime_ = times[0];
  }
  if (timeResiduals_.size() < events_ + n) timeResiduals_.resize(events_ + n);
  valueStreams_.reserve(valueCount);  // room for all their values: no check per event
  // Any chunk may be range coded (finishRanged).
  rangedContexts_.insert(rangedContexts_.end(), contexts, contexts + n);
  rangedCounts_.insert(rangedCounts_.end(), counts, counts + n);
  if (predictor_.mode() == 0)
    addRows<0>(contexts, times, counts, values, n);
  else
    addRows<1>(contexts, times, counts, values, n);
  events_ += n;
}

// Codes `count` values (addEvents has made room for them) as residuals against the predictions of
// their slot models (slot_models.hpp), kept by slot until the chunk ends (value_streams.hpp); a
// value its slot predicts from the time sets the time register.
inline void ColumnEncoder::putValues(ColumnPredictor::Context& state, Tick time,
                                     const uint64_t* values, size_t count) {
  SlotState* slots = predictor_.slots(state, count);
  const uint32_t firstSlot = state.valueOffset;
  for (size_t i = 0; i < count; ++i) {
    const SlotModel model = bestModel(slots[i], kSlotModels);
    valueStreams_.put(zigzagDifference(values[i], predictionOf(slots[i], model, time)),
                      firstSlot + static_cast<uint32_t>(i));
    if (model == SlotModel::TimeOffset) register_ = {values[i], true};
    learnSlot(slots[i], values[i], time);
  }
}

// The loop of addEvents, one copy per time prediction mode (no mode test per event).
template <int Mode>
void ColumnEncoder::addRows(const uint32_t* contexts, const Tick* times, const uint32_t* counts,
                            const uint64_t* values, size_t n) {
  uint64_t* residuals = timeResiduals_.data() + events_;
  // Locals, not members: the stores through `residuals` would force members to memory.
  Tick previous = previousTime_, minTime = minTime_, maxTime = maxTime_;
  uint64_t bits = residualBits_;
  TimeGrain grain = grain_;
  for (size_t i = 0; i < n; ++i) {
    const Tick time = times[i];
    const uint64_t delta = time - previous;
    minTime = time < minTime ? time : minTime;
    maxTime = time > maxTime ? time : maxTime;
    ColumnPredictor::Context& state = predictor_.context(contexts[i]);
    uint64_t fromContext;
    if constexpr (Mode == 0) {
      fromContext = ColumnPredictor::predictPrevious(state);
      ColumnPredictor::learnPrevious(state, delta);
    } else {
      fromContext = ColumnPredictor::predictAverage(state);
      ColumnPredictor::learnAverage(state, delta);
    }
    uint64_t predicted = fromContext;
    if (register_.set) [[unlikely]] {  // no field has announced a time yet: nothing to weigh
      const uint64_t fromRegister = register_.value - previous;
      if (useRegister(state.timeCosts, register_)) predicted = fromRegister;
      state.timeCosts = learnTimeCosts(state.timeCosts, delta, fromContext, fromRegister);
    }
    predicted = grain.round(predicted);
    grain.learn(delta);
    previous = time;
    residuals[i] = zigzag(static_cast<int64_t>(delta - predicted));
    bits |= residuals[i];
    if (counts[i] > 0) {
      putValues(state, time, values, counts[i]);
      values += counts[i];
    }
  }
  previousTime_ = previous;
  minTime_ = minTime;
  maxTime_ = maxTime;
  residualBits_ = bits;
  grain_ = grain;
}

// Coding 5: divides the time residuals by their GCD (rounded predictions keep them
// multiples of the times' unit, time_models.hpp); returns it (1 if they are all zero).
uint64_t ColumnEncoder::divideTimeResiduals() {
  uint64_t* residuals = timeResiduals_.data();
  uint64_t unit = 0;
  for (size_t i = 0; i < events_ && unit != 1; ++i)
    unit = std::gcd(unit, magnitude(static_cast<uint64_t>(unzigzag(residuals[i]))));
  if (unit <= 1) return 1;
  uint64_t bits = 0;
  for (size_t i = 0; i < events_; ++i) {
    residuals[i] = divideZigzag(residuals[i], unit);
    bits |= residuals[i];
  }
  residualBits_ = bits;
  return unit;
}

namespace {

// Byte `plane` of each residual into bytes[0, n). In blocks of 16: a loop of fixed length
// over buffers that do not overlap is turned into vector code already at -O2.
void splitPlane(const uint64_t* __restrict residuals, size_t n, unsigned plane,
                uint8_t* __restrict bytes) {
  const unsigned shift = 8 * plane;
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (size_t k = 0; k < 16; ++k) bytes[i + k] = static_cast<uint8_t>(residuals[i + k] >> shift);
  for (; i < n; ++i) bytes[i] = static_cast<uint8_t>(residuals[i] >> shift);
}

// How the byte plane bytes[0, n) is coded, from its order-0 entropy (zstd then compresses
// the whole payload; coding 2 deflated each plane in a section of its own, which is why
// some of the figures below are deflate's):
// - 7.875 bits per byte or more (the low plane of jittery times is near-uniform noise):
//   as it is. Huffman coding would save under 2% of it (measured: storing the low time
//   plane of the 16 x 249 x 160 wavefront made its archive 2.5 KB smaller, the Huffman
//   tables cost more than they saved);
// - 2 bits per byte or more: Huffman-coded by huffman.hpp (LZ77 finds nothing to match in
//   noise). zlib's Huffman-only deflate took 7 times as long for a code 0.4% larger (the
//   wavefront's planes: 0.166 s for 5,466,869 B against 0.023 s for 5,447,509 B);
// - under 1/4 bit per byte and mostly zeros (like the high time plane): the list of its
//   non-zero bytes (sparse_plane.hpp: half the size and time of deflate's Z_RLE);
// - otherwise: as it is.
// Planes shorter than 4096 bytes are always kept as they are: too short to judge.
PlaneCoding choosePlaneCoding(const uint8_t* bytes, size_t n, ByteCounts& counts) {
  if (n < 4096) return PlaneCoding::Raw;
  counts = countBytes(bytes, n);
  const uint32_t entropy = entropy256(counts, n);
  if (entropy >= 2016) return PlaneCoding::Raw;
  if (entropy >= 2 * 256) return PlaneCoding::Huffman;
  if (entropy < 256 / 4 && counts[0] >= n / 2) return PlaneCoding::Sparse;
  return PlaneCoding::Raw;
}

}  // namespace

// Splits the time residuals (fixed 8 bytes each) into byte planes, dropping all-zero
// high planes, and codes each (choosePlaneCoding): u8 planes, then per plane u8 coding
// (and for a plane not kept as it is, the varint size of its code), then the planes.
void ColumnEncoder::putBytePlanes(ByteBuffer& out) {
  const size_t n = events_;
  unsigned planes = 0;
  while (planes < 8 && (residualBits_ >> (8 * planes)) != 0) ++planes;
  if (planeBytes_.size() < planes * n) planeBytes_.resize(planes * n);
  codedPlanes_.clear();
  PlaneCoding coding[8];
  size_t codedEnd[8], size[8];
  out.push_back(static_cast<uint8_t>(planes));
  for (unsigned p = 0; p < planes; ++p) {
    uint8_t* bytes = planeBytes_.data() + p * n;
    splitPlane(timeResiduals_.data(), n, p, bytes);
    ByteCounts counts;
    coding[p] = choosePlaneCoding(bytes, n, counts);
    out.push_back(static_cast<uint8_t>(coding[p]));
    size[p] = n;
    if (coding[p] == PlaneCoding::Raw) continue;
    const size_t start = codedPlanes_.size();
    if (coding[p] == PlaneCoding::Huffman)
      huffmanEncode(bytes, n, counts, codedPlanes_);
    else
      sparseEncode(bytes, n, n - counts[0], codedPlanes_);
    codedEnd[p] = codedPlanes_.size();
    size[p] = codedEnd[p] - start;
    putVarint(out, size[p]);
  }
  for (unsigned p = 0; p < planes; ++p) {
    const uint8_t* from = coding[p] == PlaneCoding::Raw
                              ? planeBytes_.data() + p * n
                              : codedPlanes_.data() + codedEnd[p] - size[p];
    const size_t at = out.size();
    out.resize(at + size[p]);
    std::memcpy(out.data() + at, from, size[p]);
  }
}

// Coding 7's trial: the same header, then the value streams' table and the range coded
// residuals (written by the value streams, which alone know them all), on a chunk within
// the trial's limits or one that promises the gain (promisesRangedGain).
void ColumnEncoder::finishRanged(PendingChunk& out, size_t headerBytes, uint64_t payloadBytes) {
  const bool small = events_ <= kRangedTrialEvents && payloadBytes <= kRangedTrialPayload;
  out.fastFrame.clear();
  const bool tried = small || promisesRangedGain(out);
  out.probe.probed = rcProbeEnabled();
  out.probe.within = tried;
  out.ranged.clear();
  if (!tried && !out.probe.probed) return;
  out.ranged.assign(out.payload.data(), out.payload.data() + headerBytes);
  valueStreams_.writeRanged(
      {&out.ranged, timeResiduals_.data(), events_, rangedTimeBuckets(), rangedCounts_.data()});
}

// Beyond the trial's limits, a chunk is range coded only where its estimate (a few
// instructions a residual, the trial about 750 an event) is smaller than zstd's fast frame
// of the coding 5 payload by a sixth of a bit an event (kRangedEstimateEventsPerByte).
// compressChunk's probe reuses that frame: the test costs the estimate alone.
bool ColumnEncoder::promisesRangedGain(PendingChunk& out) {
  const uint64_t estimate = valueStreams_.estimateRanged(timeResiduals_.data(), events_, estimate_);
  if (!estimateZstd_) estimateZstd_ = std::make_unique<ZstdCompressor>();
  const ZstdCompressor::Frame frame =
      estimateZstd_->frame(out.payload.data(), out.payload.size(), kZstdProbeLevel, nullptr);
  out.fastFrame.resize(frame.size);  // not zero-filled: copied over at once
  std::memcpy(out.fastFrame.data(), frame.data, frame.size);
  return estimate + events_ / kRangedEstimateEventsPerByte <= frame.size;
}

// Bench probe (MTF_RC_PROBE): the variants' estimates of the chunk just finished.
void ColumnEncoder::probeRanged(PendingChunk& out) {
  std::vector<uint32_t> streamOfSlot;
  RcProbeInput in{rangedContexts_.data(),
                  rangedCounts_.data(),
                  timeResiduals_.data(),
                  events_,
                  nullptr,
                  nullptr,
                  0,
                  nullptr,
                  0};
  valueStreams_.probeValues(in.values, in.slots, in.valueCount, streamOfSlot);
  in.streamOfSlot = streamOfSlot.data();
  in.slotCount = streamOfSlot.size();
  rcProbe(in, out.probe.variants);
}

void ColumnEncoder::finishPayload(uint64_t firstEvent, PendingChunk& out) {
  ByteBuffer& payload = out.payload;
  payload.reserve(events_ * 3 + valueStreams_.count() * 2 + 32);
  payload.resize(3 * kMaxVarintBytes + 1);  // room for the header, trimmed to its size
  uint8_t* end = putVarint(putVarint(payload.data(), firstTime_), events_);
  // Coding 5: bit 1 of the mode byte says a time unit follows (most chunks have none).
  const uint64_t timeUnit = divideTimeResiduals();
  *end++ = static_cast<uint8_t>(predictor_.mode() | (timeUnit > 1 ? 2 : 0));
  if (timeUnit > 1) end = putVarint(end, timeUnit);
  payload.resize(static_cast<size_t>(end - payload.data()));
  const size_t headerBytes = payload.size();
  putBytePlanes(payload);
  const uint64_t payloadBytes = payload.size() + valueStreams_.prepare(predictor_.slotCount());
  valueStreams_.write(payload);
  finishRanged(out, headerBytes, payloadBytes);
  valueStreams_.clear();
  if (out.probe.probed) probeRanged(out);
  rangedContexts_.clear();
  rangedCounts_.clear();

  ColumnChunk& chunk = out.chunk;
  chunk = ColumnChunk{};
  chunk.firstEvent = firstEvent;
  chunk.eventCount = events_;
  chunk.firstTime = firstTime_;
  chunk.lastTime = previousTime_;
  chunk.minTime = minTime_;
  chunk.maxTime = maxTime_;

  events_ = 0;
  residualBits_ = 0;
  predictor_.reset();
  register_ = {};
  grain_ = {};
}

// Coding 7: the tree of each event's range coded time, the bucket of the bit length of the
// previous time residual of its context in the chunk (0 for its first).
const uint8_t* ColumnEncoder::rangedTimeBuckets() {
  timeBuckets_.resize(events_);
  for (size_t i = 0; i < events_; ++i) {
    ColumnPredictor::Context& state = predictor_.context(rangedContexts_[i]);
    timeBuckets_[i] = state.timeBucket;
    state.timeBucket =
        static_cast<uint8_t>(BucketedResidualModel::bucketOfValue(timeResiduals_[i]));
  }
  return timeBuckets_.data();
}

namespace {

// The range coded bytes are kept over a zstd chunk of `zstdBytes` (its header included).
bool rangedWins(size_t rangedBytes, size_t zstdBytes, uint64_t events) {
  if (rangedBytes * 100 > zstdBytes * (100 - kRangedGainPercent)) return false;
  return (zstdBytes - rangedBytes) * 8 >= events;  // not under a bit an event
}

}  // namespace

bool rangedWinsBelowFinalLevel(size_t rangedBytes, size_t headerBytes, size_t fastFrameBytes,
                               uint64_t events) {
  return rangedWins(rangedBytes, headerBytes + fastFrameBytes * kFinalLevelFloorPercent / 100,
                    events);
}

namespace {

void keepRanged(PendingChunk& pending) {
  std::vector<uint8_t>& encoded = pending.chunk.encoded;
  encoded.assign({kCodingMarker, kRangedCoding});
  encoded.insert(encoded.end(), pending.ranged.begin(), pending.ranged.end());
}

// Fills pending.chunk.encoded with the zstd chunk; false if it kept the range coded bytes
// instead, without making the final level's frame (kFinalLevelFloorPercent).
bool compressPayload(PendingChunk& pending, ChunkEntropyCoder& coder) {
  pending.finalLevelSkipped = false;
  std::vector<uint8_t>& encoded = pending.chunk.encoded;
  encoded.assign({kCodingMarker, kColumnCoding, static_cast<uint8_t>(coder.dictionary ? 1 : 0)});
  putVarint(encoded, pending.payload.size());
  const uint8_t* data = pending.payload.data();
  const size_t size = pending.payload.size();
  if (coder.level <= kZstdProbeLevel) {
    coder.zstd.compress(data, size, coder.level, coder.dictionary, encoded);
    return true;
  }
  // finishRanged may have made this frame already.
  const bool made = !pending.fastFrame.empty() && !coder.dictionary;
  const ZstdCompressor::Frame probe =
      made ? ZstdCompressor::Frame{pending.fastFrame.data(), pending.fastFrame.size()}
           : coder.zstd.frame(data, size, kZstdProbeLevel, coder.dictionary);
  // Mostly noise (the jitter of times): searching harder finds next to nothing (the
  // 16 x 249 x 160 wavefront: 0.1% at level 19 for 40 times the time). Keep the probe.
  if (probe.size >= size - size / 4) {
    encoded.insert(encoded.end(), probe.data, probe.data + probe.size);
    return true;
  }
  if (!pending.ranged.empty() && !pending.probe.probed &&
      rangedWinsBelowFinalLevel(2 + pending.ranged.size(), encoded.size(), probe.size,
                                pending.chunk.eventCount)) {
    keepRanged(pending);
    pending.finalLevelSkipped = true;
    return false;
  }
  coder.zstd.compress(data, size, coder.level, coder.dictionary, encoded);
  return true;
}

}  // namespace

void compressChunk(PendingChunk& pending, ChunkEntropyCoder& coder) {
  if (!compressPayload(pending, coder)) return;
  const std::vector<uint8_t>& encoded = pending.chunk.encoded;
  if (!rcProbeCompressed(pending.probe, encoded.size())) return;
  if (!pending.ranged.empty() &&
      rangedWins(2 + pending.ranged.size(), encoded.size(), pending.chunk.eventCount))
    keepRanged(pending);
}

ColumnChunk ColumnEncoder::finish(uint64_t firstEvent, int level) {
  if (!finishing_) finishing_ = std::make_unique<Finishing>();
  finishPayload(firstEvent, finishing_->pending);
  finishing_->coder.level = level;
  compressChunk(finishing_->pending, finishing_->coder);
  reportProbe(finishing_->pending);
  return std::move(finishing_->pending.chunk);
}

}  // namespace mtf::values
