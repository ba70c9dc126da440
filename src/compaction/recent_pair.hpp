// The two values of some key met last, and a guess of which one comes next. In loops the
// next value is nearly always one of them: either the latest again, or, when two values
// alternate, the one before it. Caches of the compactor (signature successors, call nodes).
#pragma once

#include <array>
#include <cstdint>

namespace mtf::compaction {

template <typename T, T kNone>
class RecentPair {
 public:
  // The value in `slot` (0 or 1), or kNone.
  T operator[](int slot) const { return values_[slot]; }
  // The slot to try first (then the other): a loop repeats the latest or alternates two.
  int first() const { return latest_ == beforeLatest_ ? latest_ : beforeLatest_; }
  // The value in `slot` came again.
  void use(int slot) {
    beforeLatest_ = latest_;
    latest_ = static_cast<uint8_t>(slot);
  }
  // `value` came, not held: it replaces the value that did not come latest (fills an
  // empty slot first).
  void add(T value) {
    const int slot = values_[latest_] == kNone ? latest_ : 1 - latest_;
    values_[slot] = value;
    use(slot);
  }

 private:
  std::array<T, 2> values_{kNone, kNone};
  uint8_t latest_ = 0;        // slot of the value that came latest
  uint8_t beforeLatest_ = 0;  // slot of the value that came before it
};

}  // namespace mtf::compaction
