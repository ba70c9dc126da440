#include "tag/message_matcher.hpp"

namespace mtf::tag {

void MessageMatcher::push(std::deque<Run>& queue, NodeId node, uint64_t bytes) {
  if (!queue.empty() && queue.back().node == node && queue.back().bytes == bytes) {
    ++queue.back().count;
    return;
  }
  queue.push_back({node, bytes, 1});
}

MessageMatcher::Run MessageMatcher::popOne(std::deque<Run>& queue) {
  Run front = queue.front();
  if (--queue.front().count == 0) queue.pop_front();
  front.count = 1;
  return front;
}

MessageMatcher::Queues& MessageMatcher::queuesOf(const Channel& channel) {
  if (Queues* const* q = recentChannels_.find(channel)) return **q;
  Queues& q = channels_[channel];
  recentChannels_.put(channel, &q);
  return q;
}

void MessageMatcher::send(const Channel& channel, NodeId node, uint64_t bytes) {
  Queues& q = queuesOf(channel);
  if (q.receives.empty()) return push(q.sends, node, bytes);
  const Run receive = popOne(q.receives);
  EdgeData& edge = edges_.get(node, receive.node);
  ++edge.count;
  edge.bytes += bytes;  // the size the sender sent
}

void MessageMatcher::receive(const Channel& channel, NodeId node, uint64_t bytes) {
  Queues& q = queuesOf(channel);
  if (q.sends.empty()) return push(q.receives, node, bytes);
  const Run send = popOne(q.sends);
  EdgeData& edge = edges_.get(send.node, node);
  ++edge.count;
  edge.bytes += send.bytes;
}

uint64_t MessageMatcher::waitingSends() const {
  uint64_t n = 0;
  for (const auto& [channel, q] : channels_)
    for (const Run& r : q.sends) n += r.count;
  return n;
}

uint64_t MessageMatcher::waitingReceives() const {
  uint64_t n = 0;
  for (const auto& [channel, q] : channels_)
    for (const Run& r : q.receives) n += r.count;
  return n;
}

size_t MessageMatcher::runs() const {
  size_t n = 0;
  for (const auto& [channel, q] : channels_) n += q.sends.size() + q.receives.size();
  return n;
}

}  // namespace mtf::tag
