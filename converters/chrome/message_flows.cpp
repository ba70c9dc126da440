#include "converters/chrome/message_flows.hpp"

namespace mtf::chrome {

uint64_t MessageFlows::flowId(const Channel& channel, uint64_t sequence) {
  return mixBits(channelDigest(channel) ^ mixBits(sequence));
}

}  // namespace mtf::chrome
