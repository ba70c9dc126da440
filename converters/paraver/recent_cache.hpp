// A few recently used key -> value answers of a slow lookup, kept beside the one who asks
// (the Paraver writer keeps one per location: time-ordered input asks the same few peers
// and channels again and again). Round robin: a miss remembered overwrites the entry
// remembered longest ago, whatever its use since.
#pragma once

#include <array>
#include <cstddef>

namespace mtf::paraver {

template <typename Key, typename Value, size_t kSize>
class RecentCache {
  static_assert(kSize > 0);

 public:
  // The value remembered for `key`, or nullptr.
  const Value* find(const Key& key) const {
    for (size_t i = 0; i < filled_; ++i)
      if (keys_[i] == key) return &values_[i];
    return nullptr;
  }
  // Remembers `value` for `key` (not already remembered), in place of the oldest entry
  // once all are used.
  void remember(const Key& key, const Value& value) {
    keys_[next_] = key;
    values_[next_] = value;
    if (filled_ < kSize) ++filled_;
    next_ = next_ + 1 == kSize ? 0 : next_ + 1;
  }

 private:
  std::array<Key, kSize> keys_{};
  std::array<Value, kSize> values_{};
  size_t filled_ = 0;  // entries used: the first filled_
  size_t next_ = 0;    // the entry overwritten next
};

}  // namespace mtf::paraver
