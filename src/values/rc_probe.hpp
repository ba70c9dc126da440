// Bench-only: what variants of coding 6's models would make of a chunk (MTF_RC_PROBE set).
// Each variant's size is estimated from its adaptive probabilities (the sum of -log2 p of
// the bits coded, plus the direct bits): the range coder's own overhead is a few bytes a
// chunk, the same for every variant, so bench/corpus/rc_probe.sh compares each estimate
// with the base model's estimate and adds the difference to the chunk's real size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtf::values {

inline constexpr size_t kProbeVariants = 16;

// What a chunk's probe needs: per event its context, value count and time residual; per
// value its residual and slot; per slot its stream (0: the shared one).
struct RcProbeInput {
  const uint32_t* contexts;
  const uint32_t* counts;
  const uint64_t* times;
  size_t events;
  const uint64_t* values;
  const uint32_t* slots;
  size_t valueCount;
  const uint32_t* streamOfSlot;
  size_t slotCount;
};

bool rcProbeEnabled();
// Estimated bytes per variant (rc_probe.cpp names them).
void rcProbe(const RcProbeInput& in, double (&bytes)[kProbeVariants]);
const char* rcProbeName(size_t variant);

}  // namespace mtf::values
