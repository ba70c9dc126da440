// A point-to-point channel as MPI orders messages: (sender, receiver, communicator, tag),
// ranks being WORLD ranks. MPI does not let messages overtake one another on a channel,
// so the n-th send of a channel is matched by its n-th receive; every stage that joins
// sends to receives (activity graphs, Chrome flows) keys its state by this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/types.hpp"

namespace mtf {

struct MessageChannel {
  int64_t sender = -1;
  int64_t receiver = -1;
  Ref comm = kUndefinedRef;
  uint32_t tag = 0;
  bool operator==(const MessageChannel&) const = default;
};

// SplitMix64's finaliser: every input bit affects every output bit.
inline uint64_t mixBits(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A well-mixed 64-bit digest of the channel's four numbers.
inline uint64_t channelDigest(const MessageChannel& c) {
  uint64_t h = mixBits(static_cast<uint64_t>(c.sender));
  h = mixBits(h ^ static_cast<uint64_t>(c.receiver));
  h = mixBits(h ^ c.comm);
  return mixBits(h ^ c.tag);
}

struct MessageChannelHash {
  size_t operator()(const MessageChannel& c) const { return static_cast<size_t>(channelDigest(c)); }
};

}  // namespace mtf
