#include "converters/chrome/message_flows.hpp"

namespace mtf::chrome {
namespace {

// SplitMix64's finaliser: every input bit affects every output bit.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t channelMix(const Channel& c) {
  uint64_t h = mix(static_cast<uint64_t>(c.sender));
  h = mix(h ^ static_cast<uint64_t>(c.receiver));
  h = mix(h ^ c.comm);
  return mix(h ^ c.tag);
}

}  // namespace

size_t MessageFlows::ChannelHash::operator()(const Channel& c) const {
  return static_cast<size_t>(channelMix(c));
}

uint64_t MessageFlows::flowId(const Channel& channel, uint64_t sequence) {
  return mix(channelMix(channel) ^ mix(sequence));
}

}  // namespace mtf::chrome
