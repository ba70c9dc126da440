// Flow ids that join a message's send and receive without looking ahead. The writer
// sees each location's events on their own, so both ends compute the same id from what
// each knows: the channel (sender and receiver world ranks, communicator, tag) and the
// message's number on that channel, counted separately on each side. MPI delivers the
// messages of one channel in order (non-overtaking), so the n-th send of a channel
// is received by its n-th receive. The id is a 64-bit mix of those five numbers
// (the Trace Event Format needs one id per flow; the chance that two of N messages
// collide is about N^2 / 2^65). Memory grows with the number of channels, not messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "model/message_channel.hpp"

namespace mtf::chrome {

using Channel = MessageChannel;

class MessageFlows {
 public:
  // The flow id of the next send (or receive) on `channel`.
  uint64_t nextSend(const Channel& channel) { return flowId(channel, ++sends_[channel]); }
  uint64_t nextReceive(const Channel& channel) { return flowId(channel, ++receives_[channel]); }
  static uint64_t flowId(const Channel& channel, uint64_t sequence);

 private:
  std::unordered_map<Channel, uint64_t, MessageChannelHash> sends_;
  std::unordered_map<Channel, uint64_t, MessageChannelHash> receives_;
};

}  // namespace mtf::chrome
