// Seeded, platform-independent randomness for the generator: integer arithmetic only, so
// the same seed gives byte-identical traces on every machine and compiler.
#pragma once

#include <cstdint>

namespace mtf::gen {

// SplitMix64 finaliser: a strong 64-bit mixing function.
inline uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A counter-based random value: the same arguments always give the same value, so every
// rank can compute a value shared by all ranks (a step length, a task's cost) on its own.
inline uint64_t hashOf(uint64_t a, uint64_t b, uint64_t c = 0, uint64_t d = 0) {
  return mix64(mix64(mix64(mix64(a) ^ b) ^ c) ^ d);
}

// Uniform integer in [lo, hi] from 64 random bits (multiply-shift, no modulo bias worth
// mentioning at these ranges).
inline uint64_t scaleTo(uint64_t bits, uint64_t lo, uint64_t hi) {
  const unsigned __int128 span = static_cast<unsigned __int128>(hi - lo) + 1;
  return lo + static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * span) >> 64);
}

// A sequential stream (SplitMix64), one per rank.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t uniform(uint64_t lo, uint64_t hi) { return scaleTo(next(), lo, hi); }
  // True with probability threshold / 2^64.
  bool chance(uint64_t threshold) { return threshold != 0 && next() < threshold; }

 private:
  uint64_t state_;
};

// A bell-shaped percentage around 100 (sum of three uniforms: 100 +- spread), so phase
// lengths vary like measured ones instead of being flat or constant.
inline uint64_t bellPercent(uint64_t bits, uint64_t spread) {
  const uint64_t third = 2 * spread / 3 + 1;
  uint64_t sum = 0;
  for (int i = 0; i < 3; ++i) sum += scaleTo(mix64(bits + static_cast<uint64_t>(i)), 0, third);
  return 100 - spread + sum * spread * 2 / (3 * third);
}

}  // namespace mtf::gen
