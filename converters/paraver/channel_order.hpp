// Decides, record by record, whether the Paraver writer's default matching gives a
// communication record back, or whether its two halves need a shared message id
// (model/thread_messages.hpp). The default: on a thread channel (sender location,
// receiver location, tag), the n-th send in the sender's event order is received by the
// n-th receive in the receiver's event order.
//
// The reader queues both halves of a record and delivers each location's message events
// by time, equal times in record order (record_parser.hpp). So when a record's send and
// receive times are each no earlier than those of the channel's previous default record,
// both halves come after that record's halves on their locations: the default pairs them.
// Otherwise the record gets an id, and the channel's state is left as it was.
//
// A channel's state lives while a half of its default records waits to be delivered:
// memory grows with the messages in flight, not with the channels of the whole trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include "model/types.hpp"

namespace mtf::paraver {

class ChannelOrder {
 public:
  struct Channel {
    LocationId sender = 0, receiver = 0;
    uint64_t tag = 0;
    bool operator==(const Channel&) const = default;
  };
  struct State {
    Channel channel;
    Tick lastSend = 0, lastReceive = 0;
    uint32_t waiting = 0;  // halves of default records not delivered yet
  };

  // The channel's state (give it to delivered() once per half) when the default matching
  // pairs this record; nullptr when the record needs an id.
  State* admit(const Channel& channel, Tick send, Tick receive);
  // One half of a default record reached the sink.
  void delivered(State* state);
  size_t liveChannels() const { return states_.size(); }

 private:
  struct ChannelHash {
    size_t operator()(const Channel& c) const {
      return std::hash<uint64_t>()(
          (c.sender * 0x9E3779B97F4A7C15ull ^ c.receiver) * 0xBF58476D1CE4E5B9ull ^ c.tag);
    }
  };
  std::unordered_map<Channel, State, ChannelHash> states_;  // node-based: stable pointers
};

}  // namespace mtf::paraver
