#include "converters/paraver/channel_order.hpp"

namespace mtf::paraver {

ChannelOrder::State* ChannelOrder::admit(const Channel& channel, Tick send, Tick receive) {
  const auto [it, created] = states_.try_emplace(channel);
  State& state = it->second;
  if (!created && (send < state.lastSend || receive < state.lastReceive)) return nullptr;
  state.channel = channel;
  state.lastSend = send;
  state.lastReceive = receive;
  state.waiting += 2;
  return &state;
}

void ChannelOrder::delivered(State* state) {
  if (state && --state->waiting == 0) states_.erase(state->channel);
}

}  // namespace mtf::paraver
