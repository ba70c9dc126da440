#include "values/value_streams.hpp"

#include <bit>
#include <string>

namespace mtf::values {

namespace {

size_t varintBytes(uint64_t v) {
  return v < 0x80 ? 1 : (std::bit_width(v) + 6) / 7;
}

constexpr uint64_t kShared = ~uint64_t{0};  // cursor_ of a slot without a stream of its own

}  // namespace

void ValueStreamWriter::write(size_t slotCount, ByteBuffer& out) {
  slotBytes_.assign(slotCount, 0);
  slotValues_.assign(slotCount, 0);
  for (size_t i = 0; i < count_; ++i) {
    slotBytes_[slots_[i]] += varintBytes(residuals_[i]);
    ++slotValues_[slots_[i]];
  }
  // The table, and the size of the shared stream.
  size_t own = 0;
  uint64_t sharedBytes = 0, ownBytes = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] >= kOwnStreamValues)
      ++own, ownBytes += slotBytes_[s];
    else
      sharedBytes += slotBytes_[s];
  }
  putVarint(out, own);
  size_t nextSlot = 0;
  for (size_t s = 0; s < slotCount; ++s) {
    if (slotValues_[s] < kOwnStreamValues) continue;
    putVarint(out, s - nextSlot);
    putVarint(out, slotBytes_[s]);
    nextSlot = s + 1;
  }
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
  count_ = 0;
}

void ValueStreamReader::single(size_t begin, size_t end) {
  streams_.assign(1, Stream{begin, end});
  ownSlots_.clear();
  streamOfSlot_.clear();
  nextOwn_ = 0;
}

void ValueStreamReader::parse(const uint8_t* payload, size_t begin, size_t end) {
  ByteReader r(payload + begin, end - begin);
  uint64_t own = 0;
  try {
    // Each own stream holds at least one byte: no more streams than bytes.
    own = r.count(r.remaining(), "value stream count");
    ownSlots_.resize(own);
    std::vector<uint64_t> sizes(own);
    uint64_t nextSlot = 0, ownBytes = 0;
    for (uint64_t k = 0; k < own; ++k) {
      const uint64_t gap = r.count(uint64_t{1} << 32, "value stream slot gap");
      ownSlots_[k] = nextSlot + gap;
      nextSlot = ownSlots_[k] + 1;
      sizes[k] = r.count(r.remaining(), "value stream size");
      ownBytes += sizes[k];
      if (ownBytes > r.remaining())
        throw CodingError{r.position(), "value streams run past the end of the column data"};
    }
    const size_t sharedAt = begin + r.position();
    const size_t ownAt = end - ownBytes;
    streams_.assign(1, Stream{sharedAt, ownAt});
    size_t at = ownAt;
    for (uint64_t k = 0; k < own; ++k) {
      streams_.push_back(Stream{at, at + sizes[k]});
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
