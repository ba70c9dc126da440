// Basic identifiers of the unified model.
#pragma once

#include <bit>
#include <cstdint>

namespace mtf {

using Tick = uint64_t;        // time in ticks of ClockProperties::resolution per second
using LocationId = uint64_t;  // OTF2 location ids reach 2^37 and more
using Ref = uint32_t;         // reference to a definition (string, region, comm, ...)

inline constexpr Ref kUndefinedRef = 0xFFFFFFFFu;
inline constexpr uint64_t kUndefinedId = ~uint64_t{0};

inline uint64_t bitsOf(int64_t v) {
  return static_cast<uint64_t>(v);
}
inline uint64_t bitsOf(double v) {
  return std::bit_cast<uint64_t>(v);
}
inline int64_t asSigned(uint64_t bits) {
  return static_cast<int64_t>(bits);
}
inline double asDouble(uint64_t bits) {
  return std::bit_cast<double>(bits);
}

}  // namespace mtf
