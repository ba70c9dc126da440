// Bench-only: what variants of coding 7's models would make of a chunk (MTF_RC_PROBE set).
// Each variant's size is estimated from its adaptive probabilities (the sum of -log2 p of
// the bits coded, plus the direct bits): the range coder's own overhead is a few bytes a
// chunk, the same for every variant, so bench/corpus/rc_probe.sh compares each estimate
// with the base model's estimate and adds the difference to the chunk's real size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtf::values {

inline constexpr size_t kProbeVariants = 20;

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

// A chunk's probe, kept with it until it is delivered: the line is printed then, once,
// with the zstd frame it was delivered with (a held chunk is compressed more than once
// while the column dictionary is judged).
struct RcProbeChunk {
  bool probed = false, within = false;
  size_t zstd = 0;  // the zstd frame of the last compression (set by rcProbeCompressed)
  double variants[kProbeVariants] = {};
};

bool rcProbeEnabled();
// Called by compressChunk with its zstd frame's size; returns whether range coding may be
// chosen (not for a chunk the probe range coded beyond the trial's limits).
bool rcProbeCompressed(RcProbeChunk& probe, size_t zstdBytes);
// Prints the chunk's line (stderr) if it was probed.
void rcProbeReport(const RcProbeChunk& probe, uint64_t events, size_t rangedBytes);
// Estimated bytes per variant (rc_probe.cpp names them).
void rcProbe(const RcProbeInput& in, double (&bytes)[kProbeVariants]);
const char* rcProbeName(size_t variant);

}  // namespace mtf::values
