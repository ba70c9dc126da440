// Communication symbols: the alphabet of pattern detection and matching.
//
// Each MPI communication event of a location becomes one symbol: "S3" (send to world
// rank 3), "R0" (receive from world rank 0), or a collective ("Allreduce", "Bcast@0"
// with its root as a world rank). As in the paper (section IV.A), the message envelope
// (size, tag, communicator) is dropped by default: a pattern describes how processes
// communicate, not what they exchange. SymbolOptions::keepEnvelope keeps it.
// Every other event (enter/leave, metrics, request completions, ...) has no symbol.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/event.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::patterns {

using SymbolId = uint32_t;

enum class SymbolKind : uint8_t { Send = 0, Recv = 1, Collective = 2 };

struct CommSymbol {
  SymbolKind kind = SymbolKind::Send;
  int64_t partner = -1;  // world rank of the peer (Send/Recv), -1 if unknown
  uint8_t op = 0;        // OTF2_CollectiveOp (Collective)
  int64_t root = -1;     // world rank of the root of a rooted collective, else -1
  // Envelope, only filled when SymbolOptions::keepEnvelope is set.
  bool hasEnvelope = false;
  uint32_t tag = 0;
  uint64_t length = 0;
  uint64_t comm = 0;

  bool isPointToPoint() const { return kind != SymbolKind::Collective; }
  bool operator==(const CommSymbol&) const = default;
};

// A point-to-point symbol: a send to, or a receive from, world rank `peer`.
inline CommSymbol sendTo(int64_t peer) {
  CommSymbol s;
  s.kind = SymbolKind::Send;
  s.partner = peer;
  return s;
}
inline CommSymbol recvFrom(int64_t peer) {
  CommSymbol s;
  s.kind = SymbolKind::Recv;
  s.partner = peer;
  return s;
}

struct SymbolOptions {
  bool keepEnvelope = false;  // keep size, tag and communicator in the symbol
};

// "S3", "R0", "Allreduce", "Bcast@0"; with an envelope "S3[tag=1,len=8,comm=0]".
std::string toString(const CommSymbol& s);
// Parses the absolute forms of toString without envelope ("S3", "R0", "Bcast@2",
// "allreduce"). Returns nullopt on anything else.
std::optional<CommSymbol> parseSymbol(std::string_view text);
// "Allreduce" for OTF2_COLLECTIVE_OP_ALLREDUCE; "Collective<op>" if unknown.
std::string collectiveName(uint8_t op);
bool collectiveFromName(std::string_view name, uint8_t& op);
bool isRootedCollective(uint8_t op);

// Interns symbols to dense ids (shared by all locations of a trace).
class SymbolTable {
 public:
  SymbolId intern(const CommSymbol& s);
  // The id of `s` if it was interned.
  std::optional<SymbolId> find(const CommSymbol& s) const;
  const CommSymbol& symbol(SymbolId id) const { return symbols_.at(id); }
  size_t size() const { return symbols_.size(); }
  std::string name(SymbolId id) const { return toString(symbol(id)); }

 private:
  struct Hash {
    size_t operator()(const CommSymbol& s) const;
  };
  std::unordered_map<CommSymbol, SymbolId, Hash> ids_;
  std::vector<CommSymbol> symbols_;
};

// Turns events into symbols using the trace's communicators.
class SymbolExtractor {
 public:
  SymbolExtractor(const Definitions& defs, SymbolOptions options = {});
  // The symbol of `e` or nullopt when `e` is not a communication event.
  std::optional<CommSymbol> symbolOf(const Event& e) const;
  const RankMap& ranks() const { return ranks_; }

 private:
  RankMap ranks_;
  SymbolOptions options_;
};

}  // namespace mtf::patterns
