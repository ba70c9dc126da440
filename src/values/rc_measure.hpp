// Bench-only: with MTF_RC_MEASURE set, every chunk also prints on stderr what its value and
// time residuals would take range coded (residual_model.hpp) against its zstd frame
// (bench/corpus/rc_measure.sh sums the lines).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace mtf::values {

struct RcMeasure {
  bool on = false;
  size_t headerBytes = 0;  // the payload's header (before the time planes)
  size_t valuesAt = 0;     // payload offset of the value section
  size_t tableBytes = 0;   // its stream table
  size_t sizeBytes = 0;    // the table's stream sizes (a range coded section has none)
  size_t valueCount = 0;
  size_t rcTime = 0, rcStreams = 0, rcSlots = 0, rcShared = 0;
  static bool enabled() {
    static const bool on = std::getenv("MTF_RC_MEASURE") != nullptr;
    return on;
  }
};

// The bytes of the n residuals range coded in order, residual i with model streamOf[i].
size_t rangeCodedSize(const uint64_t* residuals, const uint32_t* streamOf, size_t n,
                      size_t streams);

}  // namespace mtf::values
