// Who sends how many messages to whom, in world ranks, read from a trace's files by
// means other than mtf's readers, so a test can check mtf's outputs against them:
// otf2-print (the OTF2 library's own reading of the communicators), the communication
// records of a Paraver .prv, and the MESSAGE_SEND/RECV records of TAU's .trc files with
// their `par` fields decoded bit by bit.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace mtf::test {

// (sender world rank, receiver world rank) -> messages; -1: a partner that is not known.
using MessageMatrix = std::map<std::pair<int64_t, int64_t>, uint64_t>;

struct SidedMatrices {
  MessageMatrix sends;     // counted at the senders' send events
  MessageMatrix receives;  // counted at the receivers' receive events
};

// From `otf2-print` of an OTF2 anchor: the partner's location as otf2-print resolves the
// rank through the communicator, its world rank from the COMM_LOCATIONS group.
SidedMatrices otf2Matrices(const std::string& anchor);
// From the communication records (type 3) of a .prv: world rank = task - 1.
MessageMatrix paraverMatrix(const std::string& prv);
// From the tautrace.<node>.<context>.<thread>.trc files of a directory: world rank = node,
// the partner from bits 24-31 and 56-63 of `par` (formats README, TAU section).
SidedMatrices tauMatrices(const std::string& directory);

// The (sender, receiver) pairs with at least one message.
using RankPairs = std::set<std::pair<int64_t, int64_t>>;
RankPairs pairsOf(const MessageMatrix& m);
// The (sender, receiver) pairs of the point-to-point lines of `mtf loops` text ("2 isend 8
// tag1 8B", "8 irecv 2 tag1 8B in MPI_Waitall": the sender first either way).
void loopPairs(const std::string& loopsText, RankPairs& sends, RankPairs& receives);

std::string describe(const MessageMatrix& m);
uint64_t total(const MessageMatrix& m);

}  // namespace mtf::test
