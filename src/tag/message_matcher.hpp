// Joins each point-to-point send to its receive as MPI does: per channel (sender, receiver,
// communicator, tag; ranks are WORLD ranks) the n-th send matches the n-th receive.
// Unmatched sends (or receives, when the receiver's events come first, as with a reader
// that delivers one location after another) wait in run-length coded queues: a run is one
// node and one size repeated, so a loop that sends the same message N times waits as one
// run, and memory stays the size of the graph, not the number of messages.
// For the same reason a message edge carries its count and bytes but no time: the time of
// a message needs each send's time until its receive is seen.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "model/message_channel.hpp"
#include "tag/activity_graph.hpp"
#include "tag/recent.hpp"
#include "tag/recent_edges.hpp"

namespace mtf::tag {

using Channel = MessageChannel;

class MessageMatcher {
 public:
  explicit MessageMatcher(ActivityGraph& graph) : edges_(graph, EdgeKind::Message) {}
  void send(const Channel& channel, NodeId node, uint64_t bytes);
  void receive(const Channel& channel, NodeId node, uint64_t bytes);
  // Sends and receives still waiting (call at the end).
  uint64_t waitingSends() const;
  uint64_t waitingReceives() const;
  size_t runs() const;  // queued runs over all channels (the matcher's memory)

 private:
  struct Run {
    NodeId node;
    uint64_t bytes;
    uint64_t count;
  };
  struct Queues {
    std::deque<Run> sends;
    std::deque<Run> receives;
  };
  static void push(std::deque<Run>& queue, NodeId node, uint64_t bytes);
  Queues& queuesOf(const Channel& channel);
  static Run popOne(std::deque<Run>& queue);

  std::unordered_map<Channel, Queues, MessageChannelHash>
      channels_;  // node-based: stable addresses
  Recent<Channel, Queues*> recentChannels_;
  RecentEdges edges_;
};

}  // namespace mtf::tag
