// Checks the invariants a trace of an MPI program must hold, streaming: every send is
// matched by exactly one receive with the same sender, receiver, communicator, tag and
// size (in FIFO order per channel, as MPI guarantees); receives complete after their send
// started; every location's events are in time order and its regions nest; every request
// is posted once and completed once; all ranks call the same collectives in the same
// order. Used by the generator's tests; works on any trace (memory: unmatched messages).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::gen {

struct CheckReport {
  uint64_t events = 0;
  uint64_t messages = 0;  // matched send/receive pairs
  uint64_t unmatchedSends = 0;
  uint64_t unmatchedReceives = 0;
  uint64_t sizeMismatches = 0;      // matched pairs whose lengths differ
  uint64_t receivesBeforeSend = 0;  // a receive completed before its send began
  uint64_t outOfOrder = 0;          // an event earlier than the one before it
  uint64_t badNesting = 0;          // Leave of a region that is not the innermost one
  uint64_t requestErrors = 0;       // completion of an unknown request, or never completed
  uint64_t requestsNotIncreasing = 0;
  bool collectivesAgree = true;  // every rank has the same sequence of collectives
  // (sender world rank, receiver world rank) -> matched messages
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> messagesPerPair;
  std::map<EventKind, uint64_t> eventsPerKind;
  std::vector<uint64_t> eventsPerRank;
  // Senders of rank 0's receives, in rank 0's order (for master/worker).
  std::vector<uint64_t> rankZeroReceiveSources;

  bool clean() const {
    return unmatchedSends == 0 && unmatchedReceives == 0 && sizeMismatches == 0 &&
           receivesBeforeSend == 0 && outOfOrder == 0 && badNesting == 0 && requestErrors == 0 &&
           requestsNotIncreasing == 0 && collectivesAgree;
  }
  std::string summary() const;
};

class TraceCheckSink : public TraceSink {
 public:
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  const CheckReport& report() const { return report_; }

 private:
  struct Message {
    uint64_t length;
    Tick time;
  };
  struct LocationState {
    Tick last = 0;
    bool any = false;
    std::vector<uint64_t> regions;                        // open regions, innermost last
    std::unordered_map<uint64_t, uint64_t> openRequests;  // request -> posted kind
    uint64_t lastRequest = 0;
    uint64_t collectiveDigest = 0;
    uint64_t collectives = 0;
  };
  using Channel = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>;  // from, to, comm, tag
  struct ChannelQueues {
    std::deque<Message> sends, receives;
  };

  void onSend(uint64_t from, const Event& e, uint64_t receiverRank);
  void onReceive(uint64_t to, const Event& e, uint64_t senderRank);
  void onRequest(LocationState& s, const Event& e);
  void onCollective(LocationState& s, const Event& e);
  uint64_t worldRank(const Event& e, uint64_t rankInComm, uint64_t comm) const;

  const Definitions* defs_ = nullptr;
  std::unique_ptr<RankMap> ranks_;
  std::unordered_map<LocationId, LocationState> locations_;
  std::map<Channel, ChannelQueues> channels_;
  CheckReport report_;
};

}  // namespace mtf::gen
