#include "values/value_streams.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string>

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

void ValueStreamWriter::write(size_t slotCount, ByteBuffer& out, RcMeasure* measure) {
  const size_t tableAt = out.size();
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
  size_t own = 0;
  uint64_t sharedUnit = 0, sharedNonZero = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] >= kOwnStreamValues) {
      ++own;
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
  // The table, and the size of the shared stream.
  uint64_t sharedBytes = 0, ownBytes = 0;
  for (size_t s = 0; s < slotCount; ++s)
    (slotValues_[s] >= kOwnStreamValues ? ownBytes : sharedBytes) += slotBytes_[s];
  putScaled(out, own, sharedUnit);
  size_t nextSlot = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] < kOwnStreamValues) continue;
    putScaled(out, s - nextSlot, unit_[s]);
    putVarint(out, slotBytes_[s]);
    nextSlot = s + 1;
  }
  // Each slot's cursor: the shared stream's, or the start of its own stream.
  const size_t sharedAt = out.size();
  if (measure) measureRc(slotCount, sharedAt - tableAt, *measure);
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
  count_ = 0;
}

void ValueStreamWriter::measureRc(size_t slotCount, size_t tableBytes, RcMeasure& m) {
  m.tableBytes = tableBytes;
  m.valueCount = count_;
  std::vector<uint32_t> streamOfSlot(slotCount), streamOf(count_), zero(count_, 0);
  uint32_t streams = 1;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] >= kOwnStreamValues) {
      streamOfSlot[s] = streams++;
      m.sizeBytes += varintBytes(slotBytes_[s]);
    }
  }
  for (size_t i = 0; i < count_; ++i) streamOf[i] = streamOfSlot[slots_[i]];
  m.rcStreams = rangeCodedSize(residuals_.data(), streamOf.data(), count_, streams);
  m.rcSlots = rangeCodedSize(residuals_.data(), slots_.data(), count_, slotCount);
  m.rcShared = rangeCodedSize(residuals_.data(), zero.data(), count_, 1);
}

void ValueStreamReader::single(size_t begin, size_t end) {
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
      sizes[k] = r.count(r.remaining(), "value stream size");
      ownBytes += sizes[k];
      if (ownBytes > r.remaining())
        throw CodingError{r.position(), "value streams run past the end of the column data"};
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
  streamOfSlot_.clear();
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
  }
}

bool ValueStreamReader::finished() const {
  for (const Stream& s : streams_)
    if (s.position != s.end) return false;
  return true;
}

}  // namespace mtf::values
