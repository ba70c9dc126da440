// Flows (seed III-A): how many messages a construct exchanges per channel. A point-to-
// point channel is (sender rank, receiver rank, tag, communicator) with two sides, the
// sends and the receives; a collective channel is a communicator, one side per member
// (its calls of collectives on that communicator). Channels are FIFO, so the k-th message
// sent on a channel is the k-th received: that is what links constructs.
#pragma once

#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

#include "program/program_model.hpp"

namespace mtf::program {

struct Channel {
  bool collective = false;
  int64_t sender = 0;    // point to point
  int64_t receiver = 0;  // point to point
  uint32_t tag = 0;
  Ref comm = kUndefinedRef;
  auto operator<=>(const Channel&) const = default;
};

struct Side {
  Channel channel;
  int64_t role = 0;  // point to point: 0 sends, 1 receives; collective: the member's rank
  auto operator<=>(const Side&) const = default;
};

// Sorted by side, each side once (a small vector: most constructs use one or two sides).
using Flow = std::vector<std::pair<Side, uint64_t>>;

// The rank a process's events use (its world rank; a stand-in below -1 for a process
// without one, so that its channels stay apart from every rank's).
int64_t rankKey(const std::vector<Process>& processes, uint32_t process);
// The side an event of `process` is on, or false if the event exchanges nothing.
bool sideOf(const nlr::Signature& s, const RankForm& form, int64_t ownRank, Side& side);
// The flow of a whole construct (a loop: count times its body's) and of a sequence.
Flow flowOf(const Construct& c, const std::vector<Process>& processes);
Flow flowOf(const System& system, const std::vector<Process>& processes);

}  // namespace mtf::program
