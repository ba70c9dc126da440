// The communicators of point-to-point messages. Without --split-comms every message is on
// MPI_COMM_WORLD. With it, as a program that calls MPI_Comm_split (or
// MPI_Comm_create_group) and then talks to its neighbours through the new communicators:
// - grid kernels (wavefront, halo): one communicator per grid row (rank in it = column)
//   and one per grid column (rank in it = row); east/west messages go on the row,
//   north/south messages on the column;
// - ring, butterfly, master-worker: one two-rank communicator per pair of ranks that
//   exchange messages ({r, r+1}, {r, r XOR 2^s}, {0, worker}), lower world rank first.
// Events name the peer by its rank in the message's communicator, as MPI (and OTF2) do.
// A communicator of one rank is defined as Score-P defines it: over a COMM_SELF group.
// The collectives stay on MPI_COMM_WORLD; no event is added or removed.
// With --self-messages (independent of --split-comms) MPI_COMM_SELF is defined, as Score-P
// does, over MPI's COMM_SELF group, and a message of a rank to itself goes on it (rank 0).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "gen/gen_options.hpp"
#include "model/definitions.hpp"

namespace mtf::gen {

struct Route {
  Ref comm = kUndefinedRef;
  uint32_t rank = 0;  // the peer's rank in `comm`
};

class CommLayout {
 public:
  CommLayout() = default;
  // Defines the communicators `options` call for (none without --split-comms).
  CommLayout(DefinitionBuilder& builder, const GenOptions& options, Ref world);
  // The communicator and rank in it through which `self` names `peer` (world ranks).
  Route route(uint32_t self, uint32_t peer) const;

 private:
  void defineGrid(DefinitionBuilder& builder, const GenOptions& options);
  void definePairs(DefinitionBuilder& builder, const GenOptions& options);
  Ref selfGroup(DefinitionBuilder& builder);
  Ref define(DefinitionBuilder& builder, const std::string& name,
             const std::vector<uint64_t>& worldRanks);

  Ref world_ = kUndefinedRef;
  Ref commSelf_ = kUndefinedRef;   // MPI_COMM_SELF (--self-messages)
  Ref selfGroup_ = kUndefinedRef;  // MPI's COMM_SELF group, defined with the first singleton
  bool grid_ = false;
  uint32_t gridX_ = 1;
  std::vector<Ref> rows_, columns_;
  std::map<std::pair<uint32_t, uint32_t>, Ref> pairs_;  // (lower, higher world rank)
};

// The pairs of world ranks (lower first) that exchange messages in a non-grid kernel.
std::vector<std::pair<uint32_t, uint32_t>> talkingPairs(const GenOptions& options);

}  // namespace mtf::gen
