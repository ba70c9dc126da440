// The event shape fuzz_columns gives the column decoder, shared with make_column_seeds
// (which codes seed chunks of the same shape).
#pragma once

#include <cstddef>
#include <cstdint>

namespace mtf::fuzz {

inline uint32_t columnContext(uint64_t event) {
  return static_cast<uint32_t>(event % 5);
}
// 0..3 values for event `event`, two bits of `valueCounts` per event in turn.
inline size_t columnValueCount(uint8_t valueCounts, uint64_t event) {
  return (valueCounts >> (2 * (event % 4))) & 3;
}

}  // namespace mtf::fuzz
