// The decoding side of the value columns (columns.hpp): a chunk's payload inflated, its
// time planes merged, and its events' times and values decoded in bulk.
#include <cstring>
#include <utility>

#include "values/byte_coding.hpp"
#include "values/columns.hpp"
#include "values/huffman.hpp"
#include "values/sparse_plane.hpp"
#include "values/zlib_codec.hpp"

namespace mtf::values {

// A payload never inflates beyond this (events * (8 time bytes + generous values)).
static constexpr uint64_t kMaxPayload = uint64_t{1} << 32;

ColumnDecoder::ColumnDecoder(const ColumnChunk& chunk, const ZstdDictionary* dictionary) {
  const uint8_t coding = inflatePayload(chunk.encoded, dictionary);
  coding_ = coding;
  ByteReader r(payload_);
  previousTime_ = r.varint();
  // Not bounded by the payload size: when every time residual is zero there are no time
  // planes, and a chunk of many identical events takes a few bytes.
  eventCount_ = r.count(kMaxPayload, "column event count");
  if (eventCount_ != chunk.eventCount)
    throw CodingError{0, "column chunk holds " + std::to_string(eventCount_) +
                             " events, index says " + std::to_string(chunk.eventCount)};
  const size_t modeAt = r.position();
  const uint8_t modeByte = r.byte();
  const bool withUnit = coding >= 5 && (modeByte & 2) != 0;  // coding 5: a time unit follows
  const uint8_t mode = withUnit ? modeByte & 1 : modeByte;
  if (mode > 1) throw CodingError{modeAt, "unknown time prediction mode"};
  predictor_.setMode(mode);
  uint64_t timeUnit = 1;
  grain_.unit = coding >= 5 ? 0 : 1;  // older codings never round
  if (withUnit) {
    const size_t unitAt = r.position();
    timeUnit = r.varint();
    if (timeUnit < 2) throw CodingError{unitAt, "time unit below 2"};
  }
  if (coding == kRangedCoding) {  // coding 7: times decoded event by event (rangedTime)
    timeUnit_ = timeUnit;
    valueStreams_.parseRanged(payload_.data(), r.position(), payload_.size(), nullptr, eventCount_);
    return;
  }
  if (coding == kFirstRangedCoding)
    valueStreams_.parseRanged(payload_.data(), r.position(), payload_.size(), &timeResiduals_,
                              eventCount_);
  else
    readTimePlanes(r, coding);
  if (timeUnit > 1)
    for (uint64_t& residual : timeResiduals_) residual = multiplyZigzag(residual, timeUnit);
  if (coding == kFirstRangedCoding) return;
  if (coding >= 4)
    valueStreams_.parse(payload_.data(), r.position(), payload_.size(), coding >= 5);
  else
    valueStreams_.single(r.position(), payload_.size());
}

uint8_t ColumnDecoder::inflatePayload(const std::vector<uint8_t>& encoded,
                                      const ZstdDictionary* dictionary) {
  ByteReader head(encoded);
  uint8_t coding = 1;  // coding 1 has no marker: it starts with the payload size (never 0)
  if (!encoded.empty() && encoded[0] == kCodingMarker) {
    head.byte();
    coding = head.byte();
    if (coding < kFirstMarkedCoding || coding > kLastCoding)
      throw CodingError{1, "unknown column coding " + std::to_string(coding) +
                               " (this reader: 1 to " + std::to_string(kLastCoding) + ")"};
  }
  if (coding >= kFirstRangedCoding) {  // not compressed further: the range coded chunk follows
    payload_.assign(encoded.begin() + 2, encoded.end());
    return coding;
  }
  bool withDictionary = false;
  if (coding >= 3) {
    const uint8_t flags = head.byte();
    if (flags > 1) throw CodingError{2, "unknown column chunk flags"};
    withDictionary = flags == 1;
    if (withDictionary && !dictionary)
      throw CodingError{2, "column chunk needs the archive's dictionary, which it has not"};
  }
  const uint64_t size = head.count(kMaxPayload, "column payload size");
  // zlib cannot expand more than ~1032:1, zstd more than ~32768:1 (a block of 128 KiB
  // from 4 bytes); refuse sizes the stream cannot produce.
  const uint64_t expansion = coding >= 3 ? 32768 : 1040;
  if (size > head.remaining() * expansion + 1024 * 1024)
    throw CodingError{0, "column payload size impossible"};
  const uint8_t* data = encoded.data() + head.position();
  bool ok;
  if (coding >= 3) {
    ok = zstdDecompress(data, head.remaining(), size, withDictionary ? dictionary : nullptr,
                        payload_);
  } else {
    const ZlibFormat format = coding == 1 ? ZlibFormat::Zlib : ZlibFormat::RawDeflate;
    ok = zlibDecompress(data, head.remaining(), size, payload_, format);
  }
  if (!ok) throw CodingError{head.position(), "column data does not decompress (corrupt stream)"};
  return coding;
}

namespace {

// residuals[i] = the bytes i of the planes, plane p as byte p: one pass writing each
// residual once, its plane loop unrolled (one copy per plane count, chosen once per chunk).
// In blocks of 16 residuals, each plane's bytes or-ed in by a loop of fixed length over
// buffers that do not overlap: vector code already at -O2 (a residual at a time took 11
// instructions per event for three planes).
template <unsigned Planes>
void mergePlanesOf(const uint8_t* const* planes, uint64_t* __restrict residuals, size_t n) {
  constexpr size_t kBlock = 16;
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    uint64_t block[kBlock] = {};
#pragma GCC unroll 8
    for (unsigned p = 0; p < Planes; ++p) {
      const uint8_t* __restrict plane = planes[p] + i;
      for (size_t k = 0; k < kBlock; ++k) block[k] |= uint64_t{plane[k]} << (8 * p);
    }
    for (size_t k = 0; k < kBlock; ++k) residuals[i + k] = block[k];
  }
  for (; i < n; ++i) {
    uint64_t residual = 0;
#pragma GCC unroll 8
    for (unsigned p = 0; p < Planes; ++p) residual |= uint64_t{planes[p][i]} << (8 * p);
    residuals[i] = residual;
  }
}

template <unsigned... Counts>
void mergePlanesBy(std::integer_sequence<unsigned, Counts...>, const uint8_t* const* planes,
                   unsigned count, uint64_t* residuals, size_t n) {
  ((count == Counts + 1 ? mergePlanesOf<Counts + 1>(planes, residuals, n) : void()), ...);
}

void mergePlanes(const uint8_t* const* planes, unsigned count, uint64_t* residuals, size_t n) {
  mergePlanesBy(std::make_integer_sequence<unsigned, 8>{}, planes, count, residuals, n);
}

}  // namespace

// The time planes: u8 planes, then (coding 2) a coding byte per plane and, for each
// plane not kept as it is, the size of its code; then the planes.
void ColumnDecoder::readTimePlanes(ByteReader& r, uint8_t coding) {
  const unsigned planes = r.byte();
  if (planes > 8) throw CodingError{r.position() - 1, "bad time plane count"};
  // Coding 2 bounds the events of a chunk: a Huffman-coded or sparse plane may be far
  // shorter than its events, and they are allocated before it is decoded.
  if (coding > 1 && planes > 0 && eventCount_ > kMaxChunkEvents)
    throw CodingError{0, "column chunk of " + std::to_string(eventCount_) + " events, over " +
                             std::to_string(kMaxChunkEvents)};
  PlaneCoding codings[8] = {};  // Raw: the plane's eventCount_ bytes as they are
  uint64_t sizes[8] = {};
  for (unsigned p = 0; coding > 1 && p < planes; ++p) {
    const size_t at = r.position();
    const uint8_t code = r.byte();
    if (code > static_cast<uint8_t>(PlaneCoding::Sparse))
      throw CodingError{at, "unknown time plane coding"};
    codings[p] = static_cast<PlaneCoding>(code);
    if (codings[p] != PlaneCoding::Raw) sizes[p] = r.count(r.remaining(), "coded time plane size");
  }
  uint64_t rawPlanes = 0;
  for (unsigned p = 0; p < planes; ++p) rawPlanes += codings[p] == PlaneCoding::Raw;
  // A plane as it is holds one byte per event: check they exist before allocating.
  if (rawPlanes > 0 && r.remaining() / rawPlanes < eventCount_)
    throw CodingError{r.position(), "time planes run past the end of the column data"};
  timeResiduals_.resize(planes > 0 ? eventCount_ : 0);  // not zero-filled: the merge sets them
  const uint8_t* planeBytes[8] = {};
  ByteBuffer decoded;  // the planes not kept as they are, decoded
  decoded.resize((planes - rawPlanes) * eventCount_);
  uint8_t* nextDecoded = decoded.data();
  for (unsigned p = 0; p < planes; ++p) {
    const size_t at = r.position();
    planeBytes[p] = r.take(codings[p] == PlaneCoding::Raw ? eventCount_ : sizes[p]);
    if (codings[p] == PlaneCoding::Raw) continue;
    const bool ok = codings[p] == PlaneCoding::Huffman
                        ? huffmanDecode(planeBytes[p], sizes[p], nextDecoded, eventCount_)
                        : sparseDecode(planeBytes[p], sizes[p], nextDecoded, eventCount_);
    if (!ok) throw CodingError{at, "corrupt coded time plane"};
    planeBytes[p] = nextDecoded;
    nextDecoded += eventCount_;
  }
  mergePlanes(planeBytes, planes, timeResiduals_.data(), eventCount_);
}

// One event's time delta from its coded residual: the prediction of its context, or of
// the time register once a field has announced a time (only codings 3 and up set it),
// rounded to the time unit (coding 5; older ones keep unit 1). UnitOne: the unit is known
// to be 1; Registered: the register may be set (else it is known not to be).
template <int Mode, bool UnitOne, bool Registered>
uint64_t ColumnDecoder::decodeDelta(ColumnPredictor::Context& state, uint64_t coded, Tick previous,
                                    const TimeRegister& timeRegister, TimeGrain& grain) {
  const uint64_t residual = static_cast<uint64_t>(unzigzag(coded));
  // Mode 1: whether the history fits the 64-bit arithmetic is tested once for both the
  // prediction and the learning (predictAverage and learnAverage, fused; the same results).
  const int64_t h = state.historyLow;
  const bool narrow = Mode == 1 && state.narrow() && ColumnPredictor::small(h, 61);
  uint64_t fromContext;
  if constexpr (Mode == 0)
    fromContext = ColumnPredictor::predictPrevious(state);
  else
    fromContext =
        narrow ? static_cast<uint64_t>((h + 8) >> 4) : ColumnPredictor::predictAverage(state);
  uint64_t predicted = fromContext, fromRegister = 0;
  const bool registerSet = Registered && timeRegister.set;
  if (registerSet) [[unlikely]] {
    fromRegister = timeRegister.value - previous;
    if (useRegister(state.timeCosts, timeRegister)) predicted = fromRegister;
  }
  const uint64_t delta = (UnitOne ? predicted : grain.round(predicted)) + residual;
  if (registerSet) [[unlikely]]
    state.timeCosts = learnTimeCosts(state.timeCosts, delta, fromContext, fromRegister);
  if constexpr (!UnitOne) grain.learn(delta);
  if constexpr (Mode == 0) {
    ColumnPredictor::learnPrevious(state, delta);
  } else if (const auto d = static_cast<int64_t>(delta);
             narrow && state.seenDelta && ColumnPredictor::small(d, 57)) [[likely]] {
    state.historyLow = h + (d * 16 - h) / 8;
    state.historyHigh = state.historyLow >> 63;
  } else {
    ColumnPredictor::learnAverage(state, delta);
  }
  return delta;
}

// The `count` values of an event of coding 3 and up at `time`: each slot's model predicts,
// its stream holds the residual; a value predicted from the time sets the time register.
// Models: kSlotModels, or kCodingThreeModels for coding 3 (chosen once per chunk). The
// slots' streams are mapped once per event, not per value.
template <unsigned Models>
void ColumnDecoder::decodeSlotValues(ColumnPredictor::Context& state, Tick time, uint64_t* values,
                                     size_t count, TimeRegister& timeRegister) {
  const uint8_t* payload = payload_.data();
  SlotState* slots = predictor_.slots(state, count);
  const uint32_t firstSlot = state.valueOffset;  // coding 3: every slot reads stream 0
  valueStreams_.mapUpTo(firstSlot + count);
  for (size_t k = 0; k < count; ++k) {
    SlotState& s = slots[k];
    const SlotModel model = bestModelOf<Models>(s);
    const uint64_t residual =
        valueStreams_.nextMapped(payload, firstSlot + static_cast<uint32_t>(k));
    const uint64_t value = predictionOf(s, model, time) + static_cast<uint64_t>(unzigzag(residual));
    if (model == SlotModel::TimeOffset) timeRegister = {value, true};
    learnSlot(s, value, time);
    values[k] = value;
  }
}

Tick ColumnDecoder::next(uint32_t context, uint64_t* values, size_t count) {
  if (nextTime_ >= eventCount_)
    throw CodingError{valueStreams_.position(), "more events than the chunk holds"};
  ColumnPredictor::Context& state = predictor_.context(context);
  const Tick time = nextTime(state);
  if (count > 0) nextValues(state, time, values, count);
  return time;
}

// Coding 7: the event's time residual, range coded in the tree of its context's previous
// one's bit length, times the chunk's time unit.
uint64_t ColumnDecoder::rangedTime(ColumnPredictor::Context& state) {
  const uint64_t coded = valueStreams_.nextRangedTime(state.timeBucket);
  state.timeBucket = static_cast<uint8_t>(BucketedResidualModel::bucketOfValue(coded));
  return timeUnit_ > 1 ? multiplyZigzag(coded, timeUnit_) : coded;
}

Tick ColumnDecoder::nextTime(ColumnPredictor::Context& state) {
  const uint64_t coded = coding_ == kRangedCoding ? rangedTime(state)
                         : timeResiduals_.empty() ? 0
                                                  : timeResiduals_[nextTime_];
  ++nextTime_;
  const uint64_t delta =
      predictor_.mode() == 0
          ? decodeDelta<0, false, true>(state, coded, previousTime_, register_, grain_)
          : decodeDelta<1, false, true>(state, coded, previousTime_, register_, grain_);
  previousTime_ += delta;
  return previousTime_;
}

void ColumnDecoder::nextValues(ColumnPredictor::Context& state, Tick time, uint64_t* values,
                               size_t count) {
  if (coding_ >= 3) {
    if (coding_ >= 4)
      decodeSlotValues<kSlotModels>(state, time, values, count, register_);
    else
      decodeSlotValues<kCodingThreeModels>(state, time, values, count, register_);
    return;
  }
  const uint8_t* payload = payload_.data();
  uint64_t* previous = predictor_.values(state, count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = previous[i] + static_cast<uint64_t>(unzigzag(valueStreams_.next(payload, 0)));
    previous[i] = values[i];
  }
}

void ColumnDecoder::nextEvents(const uint32_t* contexts, const uint32_t* counts, size_t n,
                               Tick* times, uint64_t* values) {
  if (n > eventCount_ - nextTime_)
    throw CodingError{valueStreams_.position(), "more events than the chunk holds"};
  if (coding_ < 3) {
    const size_t first = nextTime_;
    size_t i = 0;
    try {
      for (; i < n; values += counts[i], ++i) times[i] = next(contexts[i], values, counts[i]);
    } catch (const CodingError&) {
      nextTime_ = first + i;  // decodedEvents() names the event that failed
      throw;
    }
    return;
  }
  const bool fiveModels = coding_ >= 4;
  if (coding_ == kRangedCoding)  // each time residual read from the range coder in turn
    return predictor_.mode() == 0
               ? decodeRows<0, kSlotModels, true>(contexts, counts, n, times, values)
               : decodeRows<1, kSlotModels, true>(contexts, counts, n, times, values);
  if (predictor_.mode() == 0)
    fiveModels ? decodeRows<0, kSlotModels>(contexts, counts, n, times, values)
               : decodeRows<0, kCodingThreeModels>(contexts, counts, n, times, values);
  else
    fiveModels ? decodeRows<1, kSlotModels>(contexts, counts, n, times, values)
               : decodeRows<1, kCodingThreeModels>(contexts, counts, n, times, values);
}

// next() of n events of coding 3 and up in one loop (the same steps), its state in locals:
// the stores of the times and values would otherwise force the members back to memory at
// every event. One copy per time prediction mode and per set of slot models (chosen once
// per chunk), each in four phases: a phase runs until its premise no longer holds, and two
// premises, once true, stay true for the rest of the chunk: the time unit is 1 (most
// chunks, after a few events: no rounding, no GCD), and a field has set the time register
// (until then the time costs are not weighed: most traces never set it).
template <int Mode, unsigned Models, bool Ranged>
void ColumnDecoder::decodeRows(const uint32_t* contexts, const uint32_t* counts, size_t n,
                               Tick* times, uint64_t* values) {
  const uint64_t* residuals = timeResiduals_.empty() ? nullptr : timeResiduals_.data() + nextTime_;
  Tick previous = previousTime_;
  TimeRegister timeRegister = register_;
  TimeGrain grain = grain_;
  size_t i = 0;
  auto rows = [&](auto unitOne, auto registered) {
    constexpr bool kUnitOne = decltype(unitOne)::value, kRegistered = decltype(registered)::value;
    for (; i < n; ++i) {
      ColumnPredictor::Context& state = predictor_.context(contexts[i]);
      const uint64_t coded = Ranged ? rangedTime(state) : residuals ? residuals[i] : 0;
      previous +=
          decodeDelta<Mode, kUnitOne, kRegistered>(state, coded, previous, timeRegister, grain);
      times[i] = previous;
      if (const size_t count = counts[i]; count != 0) {
        decodeSlotValues<Models>(state, previous, values, count, timeRegister);
        values += count;
        if (!kRegistered && timeRegister.set) return ++i, void();
      }
      if (!kUnitOne && grain.unit == 1) return ++i, void();
    }
  };
  try {
    while (i < n) {
      const bool unitOne = grain.unit == 1;
      if (timeRegister.set)
        unitOne ? rows(std::true_type{}, std::true_type{})
                : rows(std::false_type{}, std::true_type{});
      else
        unitOne ? rows(std::true_type{}, std::false_type{})
                : rows(std::false_type{}, std::false_type{});
    }
  } catch (const CodingError&) {
    nextTime_ += i;  // decodedEvents() names the event that failed
    throw;
  }
  nextTime_ += n;
  previousTime_ = previous;
  register_ = timeRegister;
  grain_ = grain;
}

bool ColumnDecoder::finished() const {
  return nextTime_ == eventCount_ && valueStreams_.finished();
}

}  // namespace mtf::values
