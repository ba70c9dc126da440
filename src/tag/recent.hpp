// A few recently used entries of a hash map, searched linearly before the map: a process
// runs the same handful of call paths, edges and message channels over and over, and a
// scan of 16 keys in one cache line or two beats a hash lookup that misses the cache.
#pragma once

#include <array>
#include <cstddef>

namespace mtf::tag {

// Value is small (an id, or a pointer into a map whose elements keep their address).
template <typename Key, typename Value, size_t N = 16>
class Recent {
 public:
  // The value cached for `key`, or nullptr.
  const Value* find(const Key& key) const {
    for (size_t i = 0; i < used_; ++i)
      if (slots_[i].key == key) return &slots_[i].value;
    return nullptr;
  }
  void put(const Key& key, Value value) {
    slots_[next_] = {key, value};
    next_ = (next_ + 1) % N;
    if (used_ < N) ++used_;
  }
  void clear() { used_ = next_ = 0; }

 private:
  struct Slot {
    Key key{};
    Value value{};
  };
  std::array<Slot, N> slots_{};
  size_t used_ = 0;
  size_t next_ = 0;
};

}  // namespace mtf::tag
