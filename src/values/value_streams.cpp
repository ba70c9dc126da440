#include "values/value_streams.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>
#include <string>

#include "values/residual_model.hpp"
#include "values/time_models.hpp"

namespace mtf::values {

namespace {

size_t varintBytes(uint64_t v) {
  return v < 0x80 ? 1 : (std::bit_width(v) + 6) / 7;
}

// varint(2 n + 1) varint(unit) when the unit is above 1, else varint(2 n).
void putScaled(ByteBuffer& out, uint64_t n, uint64_t unit) {
  putVarint(out, 2 * n + (unit > 1));
  if (unit > 1) putVarint(out, unit);
}

constexpr uint64_t kShared = ~uint64_t{0};  // cursor_ of a slot without a stream of its own

}  // namespace

uint64_t ValueStreamWriter::prepare(size_t slotCount) {
  slotCount_ = slotCount;
  slotValues_.assign(slotCount, 0);
  unit_.assign(slotCount, 0);
  nonZero_.assign(slotCount, 0);
  for (size_t i = 0; i < count_; ++i) {
    ++slotValues_[slots_[i]];
    nonZero_[slots_[i]] += residuals_[i] != 0;
    uint64_t& unit = unit_[slots_[i]];
    if (unit != 1) unit = std::gcd(unit, magnitude(static_cast<uint64_t>(unzigzag(residuals_[i]))));
  }
  // The unit of the shared stream: the GCD of its slots' units.
  // A unit pays only for a stream of enough non-zero residuals: on a few, the bytes of
  // the unit cost more than they save (measured on the corpus's small traces).
  uint64_t sharedUnit = 0, sharedNonZero = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] >= kOwnStreamValues) {
      if (nonZero_[s] < kUnitResiduals) unit_[s] = 1;
    } else {
      sharedUnit = std::gcd(sharedUnit, unit_[s]);
      sharedNonZero += nonZero_[s];
    }
  }
  if (sharedNonZero < kUnitResiduals) sharedUnit = 1;
  sharedUnit = std::max<uint64_t>(sharedUnit, 1);
  for (size_t s = 0; s < slotCount; ++s)
    unit_[s] = slotValues_[s] >= kOwnStreamValues ? std::max<uint64_t>(unit_[s], 1) : sharedUnit;
  slotBytes_.assign(slotCount, 0);
  for (size_t i = 0; i < count_; ++i) {
    const uint64_t unit = unit_[slots_[i]];
    if (unit != 1) residuals_[i] = divideZigzag(residuals_[i], unit);
    slotBytes_[slots_[i]] += varintBytes(residuals_[i]);
  }
  // The size of the shared stream and of the others.
  sharedBytes_ = ownBytes_ = 0;
  for (size_t s = 0; s < slotCount; ++s)
    (slotValues_[s] >= kOwnStreamValues ? ownBytes_ : sharedBytes_) += slotBytes_[s];
  sharedUnit_ = sharedUnit;
  return sharedBytes_ + ownBytes_;
}

void ValueStreamWriter::write(ByteBuffer& out) {
  const size_t slotCount = slotCount_;
  const uint64_t sharedBytes = sharedBytes_, ownBytes = ownBytes_;
  writeTable(slotCount, sharedUnit_, true, out);
  // Each slot's cursor: the shared stream's, or the start of its own stream.
  const size_t sharedAt = out.size();
  uint64_t ownAt = sharedAt + sharedBytes;
  cursor_.resize(slotCount);
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] < kOwnStreamValues) {
      cursor_[s] = kShared;
    } else {
      cursor_[s] = ownAt;
      ownAt += slotBytes_[s];
    }
  }
  out.resize(sharedAt + sharedBytes + ownBytes);
  uint8_t* data = out.data();
  uint8_t* shared = data + sharedAt;
  for (size_t i = 0; i < count_; ++i) {
    uint64_t& at = cursor_[slots_[i]];
    if (at == kShared) {
      shared = putVarint(shared, residuals_[i]);
    } else {
      at = static_cast<uint64_t>(putVarint(data + at, residuals_[i]) - data);
    }
  }
}

void ValueStreamWriter::probeValues(const uint64_t*& values, const uint32_t*& slots, size_t& count,
                                    std::vector<uint32_t>& streamOfSlot) {
  values = residuals_.data();
  slots = slots_.data();
  count = lastCount_;
  numberModels();  // cursor_: each slot's stream, as coding 7 numbers them
  streamOfSlot.resize(cursor_.size());
  for (size_t s = 0; s < cursor_.size(); ++s) streamOfSlot[s] = static_cast<uint32_t>(cursor_[s]);
}

// The table: varint(2 K + f) [unit], then per own stream varint(2 gap + f) [unit] and, in
// coding 5 (not 6), varint(its size).
void ValueStreamWriter::writeTable(size_t slotCount, uint64_t sharedUnit, bool withSizes,
                                   ByteBuffer& out) const {
  size_t own = 0;
  for (size_t s = 0; s < slotCount; ++s) own += slotValues_[s] >= kOwnStreamValues;
  putScaled(out, own, sharedUnit);
  size_t nextSlot = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] < kOwnStreamValues) continue;
    putScaled(out, s - nextSlot, unit_[s]);
    if (withSizes) putVarint(out, slotBytes_[s]);
    nextSlot = s + 1;
  }
}

size_t ValueStreamWriter::numberModels() {
  cursor_.resize(slotCount_);
  size_t models = 1;
  for (size_t s = 0; s < slotCount_; ++s)
    cursor_[s] = slotValues_[s] >= kOwnStreamValues ? models++ : 0;
  return models;
}

// Each time and value residual counted in the model coding 7 would code it with.
uint64_t ValueStreamWriter::estimateRanged(const uint64_t* times, size_t events,
                                           RangedEstimate& estimate) {
  const size_t models = numberModels();
  estimate.reset(models + 1);
  estimate.addSampled(times, events, [models](size_t) { return models; });
  const uint32_t* slots = slots_.data();
  const uint64_t* modelOf = cursor_.data();
  estimate.addSampled(residuals_.data(), count_, [=](size_t i) { return modelOf[slots[i]]; });
  return estimate.bits() / 8;
}

// Coding 7: the table without sizes, then one range coder: event by event, its time
// residual (one model, its tree chosen by ranged.timeBuckets), then its values, each with
// its stream's model (the shared stream's for a slot without one), the tree chosen by the
// bit length of the slot's previous residual. Residuals already divided by their units.
void ValueStreamWriter::writeRanged(const RangedOutput& ranged) {
  const size_t slotCount = slotCount_;
  writeTable(slotCount, sharedUnit_, false, *ranged.out);
  const size_t models = numberModels();  // cursor_: each slot's model
  models_.resize(models + 1);            // the last: the times' (the vector keeps its memory)
  for (BucketedResidualModel& m : models_) m = BucketedResidualModel{};
  slotBucket_.assign(slotCount, 0);
  BucketedResidualModel* const times = &models_.back();
  RangeEncoder coder(*ranged.out);
  size_t k = 0;
  for (size_t i = 0; i < ranged.events; ++i) {
    times->encode(coder, ranged.times[i], ranged.timeBuckets[i]);
    for (const size_t end = k + ranged.counts[i]; k < end; ++k) {
      const uint32_t slot = slots_[k];
      models_[cursor_[slot]].encode(coder, residuals_[k], slotBucket_[slot]);
      slotBucket_[slot] = static_cast<uint8_t>(BucketedResidualModel::bucketOfValue(residuals_[k]));
    }
  }
  if (k != count_) throw std::logic_error("range coded values: counts do not add up");
  coder.finish();
}

void ValueStreamReader::single(size_t begin, size_t end) {
  ranged_.reset();
  streams_.assign(1, Stream{begin, end});
  ownSlots_.clear();
  streamOfSlot_.clear();
  nextOwn_ = 0;
}

// Coding 5: varint(2 n + flag), then varint(unit) if the flag is set, else unit 1.
std::pair<uint64_t, uint64_t> ValueStreamReader::readScaled(ByteReader& r, uint64_t limit,
                                                            const char* what, bool scaled) {
  if (!scaled) return {r.count(limit, what), 1};
  const uint64_t n = r.count(2 * limit + 1, what);
  if ((n & 1) == 0) return {n >> 1, 1};
  const size_t at = r.position();
  const uint64_t unit = r.varint();
  if (unit < 2) throw CodingError{at, std::string{"bad unit of "} + what};
  return {n >> 1, unit};
}

void ValueStreamReader::parse(const uint8_t* payload, size_t begin, size_t end, bool scaled) {
  ranged_.reset();
  ByteReader r(payload + begin, end - begin);
  try {
    // Each own stream holds at least one byte: no more streams than bytes.
    const auto [own, sharedUnit] = readScaled(
        r, std::min<uint64_t>(r.remaining(), uint64_t{1} << 40), "value stream count", scaled);
    ownSlots_.resize(own);
    std::vector<uint64_t> sizes(own), units(own);
    uint64_t nextSlot = 0, ownBytes = 0;
    for (uint64_t k = 0; k < own; ++k) {
      const auto [gap, unit] = readScaled(r, uint64_t{1} << 32, "value stream slot gap", scaled);
      ownSlots_[k] = nextSlot + gap;
      nextSlot = ownSlots_[k] + 1;
      units[k] = unit;
      if (!sizes_) continue;
      sizes[k] = r.count(r.remaining(), "value stream size");
      ownBytes += sizes[k];
      if (ownBytes > r.remaining())
        throw CodingError{r.position(), "value streams run past the end of the column data"};
    }
    if (!sizes_) {  // codings 6, 7: a range coder over the rest
      streams_.assign(1, Stream{0, 0, sharedUnit});
      for (uint64_t k = 0; k < own; ++k) streams_.push_back(Stream{0, 0, units[k]});
      if (bucketed_)
        bucketedModels_.assign(1 + own, BucketedResidualModel{});
      else
        models_.assign(1 + own, ResidualModel{});
      const size_t at = begin + r.position();
      ranged_.emplace(payload + at, end - at);
      rangedAt_ = at;
      return resetMap();
    }
    const size_t sharedAt = begin + r.position();
    const size_t ownAt = end - ownBytes;
    streams_.assign(1, Stream{sharedAt, ownAt, sharedUnit});
    size_t at = ownAt;
    for (uint64_t k = 0; k < own; ++k) {
      streams_.push_back(Stream{at, at + sizes[k], units[k]});
      at += sizes[k];
    }
  } catch (CodingError& e) {
    e.offset += begin;
    throw;
  }
  resetMap();
}

void ValueStreamReader::parseRanged(const uint8_t* payload, size_t begin, size_t end,
                                    NoZeroFillVector<uint64_t>* times, size_t events) {
  sizes_ = false;
  bucketed_ = times == nullptr;
  try {
    parse(payload, begin, end, true);
  } catch (...) {
    sizes_ = true;
    throw;
  }
  sizes_ = true;
  // Each residual takes 7 coded bits of probability at most 4065/4096: at least 0.077 bits.
  if (events / 128 > end - rangedAt_ + 8)
    throw CodingError{rangedAt_, "column event count impossible for its range coded data"};
  if (bucketed_) {
    timeModel_ = BucketedResidualModel{};
    return;
  }
  times->resize(events);
  ResidualModel model;
  try {
    for (size_t i = 0; i < events; ++i) (*times)[i] = model.decode(*ranged_);
  } catch (CodingError& e) {
    e.offset += rangedAt_;
    throw;
  }
  // The decoder reads as many bytes as the encoder wrote, of which at most 4 zeros are not
  // stored: more, and the data was cut short (an early check: the values come later).
  if (ranged_->consumed() > end - rangedAt_ + 4)
    throw CodingError{end, "range coded column data ends early (truncated?)"};
}

uint64_t ValueStreamReader::nextRangedTime(unsigned bucket) {
  try {
    return timeModel_.decode(*ranged_, bucket);
  } catch (CodingError& e) {
    e.offset += rangedAt_;
    throw;
  }
}

uint64_t ValueStreamReader::nextRanged(uint32_t slot) {
  try {
    if (!bucketed_) return models_[streamOfSlot_[slot]].decode(*ranged_);
    uint8_t& bucket = slotBucket_[slot];
    const uint64_t v = bucketedModels_[streamOfSlot_[slot]].decode(*ranged_, bucket);
    bucket = static_cast<uint8_t>(BucketedResidualModel::bucketOfValue(v));
    return v;
  } catch (CodingError& e) {
    e.offset += rangedAt_;
    throw;
  }
}

void ValueStreamReader::resetMap() {
  streamOfSlot_.clear();
  slotBucket_.clear();
  nextOwn_ = 0;
}

uint64_t ValueStreamReader::readVarint(ByteReader& r, size_t base) {
  try {
    return r.varint();
  } catch (CodingError& e) {
    e.offset += base;
    e.what = "value " + e.what;
    throw;
  }
}

void ValueStreamReader::mapSlots(size_t count) {
  while (streamOfSlot_.size() < count) {
    const uint64_t slot = streamOfSlot_.size();
    uint32_t stream = 0;
    if (nextOwn_ < ownSlots_.size() && ownSlots_[nextOwn_] == slot)
      stream = static_cast<uint32_t>(1 + nextOwn_++);
    streamOfSlot_.push_back(stream);
    slotBucket_.push_back(0);
  }
}

bool ValueStreamReader::finished() const {
  if (ranged_) return ranged_->endedWell();
  for (const Stream& s : streams_)
    if (s.position != s.end) return false;
  return true;
}

}  // namespace mtf::values
