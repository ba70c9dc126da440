#include "patterns/symbols.hpp"

#include <array>
#include <cctype>
#include <charconv>

namespace mtf::patterns {
namespace {

// Names of OTF2_CollectiveOp 0..22, in enum order.
constexpr std::array<std::string_view, 23> kCollectiveNames = {"Barrier",
                                                               "Bcast",
                                                               "Gather",
                                                               "Gatherv",
                                                               "Scatter",
                                                               "Scatterv",
                                                               "Allgather",
                                                               "Allgatherv",
                                                               "Alltoall",
                                                               "Alltoallv",
                                                               "Alltoallw",
                                                               "Allreduce",
                                                               "Reduce",
                                                               "ReduceScatter",
                                                               "Scan",
                                                               "Exscan",
                                                               "ReduceScatterBlock",
                                                               "CreateHandle",
                                                               "DestroyHandle",
                                                               "Allocate",
                                                               "Deallocate",
                                                               "CreateHandleAndAllocate",
                                                               "DestroyHandleAndDeallocate"};

bool equalNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool parseInt(std::string_view text, int64_t& value) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::string collectiveName(uint8_t op) {
  if (op < kCollectiveNames.size()) return std::string(kCollectiveNames[op]);
  return "Collective" + std::to_string(op);
}

bool collectiveFromName(std::string_view name, uint8_t& op) {
  if (name.starts_with("MPI_") || name.starts_with("mpi_")) name.remove_prefix(4);
  for (size_t i = 0; i < kCollectiveNames.size(); ++i) {
    if (equalNoCase(name, kCollectiveNames[i])) {
      op = static_cast<uint8_t>(i);
      return true;
    }
  }
  return false;
}

bool isRootedCollective(uint8_t op) {
  // Bcast, Gather(v), Scatter(v), Reduce.
  return (op >= 1 && op <= 5) || op == 12;
}

std::string toString(const CommSymbol& s) {
  std::string out;
  if (s.kind == SymbolKind::Collective) {
    out = collectiveName(s.op);
    if (s.root >= 0) out += "@" + std::to_string(s.root);
  } else {
    out = s.kind == SymbolKind::Send ? "S" : "R";
    out += s.partner >= 0 ? std::to_string(s.partner) : std::string("?");
  }
  if (s.hasEnvelope) {
    out += "[tag=" + std::to_string(s.tag) + ",len=" + std::to_string(s.length) +
           ",comm=" + std::to_string(s.comm) + "]";
  }
  return out;
}

std::optional<CommSymbol> parseSymbol(std::string_view text) {
  CommSymbol s;
  if (text.size() >= 2 && (text[0] == 'S' || text[0] == 'R') &&
      parseInt(text.substr(1), s.partner) && s.partner >= 0) {
    s.kind = text[0] == 'S' ? SymbolKind::Send : SymbolKind::Recv;
    return s;
  }
  s.kind = SymbolKind::Collective;
  const size_t at = text.find('@');
  if (!collectiveFromName(text.substr(0, at), s.op)) return std::nullopt;
  if (at != std::string_view::npos && (!parseInt(text.substr(at + 1), s.root) || s.root < 0))
    return std::nullopt;
  return s;
}

size_t SymbolTable::Hash::operator()(const CommSymbol& s) const {
  uint64_t h = static_cast<uint64_t>(s.kind) * 0x9E3779B97F4A7C15ull;
  const uint64_t parts[] = {static_cast<uint64_t>(s.partner),
                            s.op,
                            static_cast<uint64_t>(s.root),
                            s.tag,
                            s.length,
                            s.comm,
                            s.hasEnvelope};
  for (uint64_t p : parts) h = (h ^ p) * 0x100000001B3ull + (h >> 29);
  return static_cast<size_t>(h);
}

SymbolId SymbolTable::intern(const CommSymbol& s) {
  const auto [it, inserted] = ids_.try_emplace(s, static_cast<SymbolId>(symbols_.size()));
  if (inserted) symbols_.push_back(s);
  return it->second;
}

std::optional<SymbolId> SymbolTable::find(const CommSymbol& s) const {
  const auto it = ids_.find(s);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

SymbolExtractor::SymbolExtractor(const Definitions& defs, SymbolOptions options)
    : ranks_(defs), options_(options) {}

std::optional<CommSymbol> SymbolExtractor::symbolOf(const Event& e) const {
  CommSymbol s;
  if (isMpiPointToPoint(e.kind)) {
    // Send/Recv/Isend/Irecv all start with rank, comm, tag, length.
    s.kind = isSend(e.kind) ? SymbolKind::Send : SymbolKind::Recv;
    s.partner = ranks_.worldRankOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
    if (options_.keepEnvelope) {
      s.hasEnvelope = true;
      s.comm = e.fields[1];
      s.tag = static_cast<uint32_t>(e.fields[2]);
      s.length = e.fields[3];
    }
    return s;
  }
  if (e.kind != EventKind::MpiCollectiveEnd && e.kind != EventKind::NonBlockingCollectiveComplete)
    return std::nullopt;
  // op, comm, root, sent, received (both kinds).
  s.kind = SymbolKind::Collective;
  s.op = static_cast<uint8_t>(e.fields[0]);
  if (isRootedCollective(s.op) && e.fields[2] != 0xFFFFFFFFull)
    s.root = ranks_.worldRankOf(static_cast<Ref>(e.fields[1]), e.fields[2], e.location);
  if (options_.keepEnvelope) {
    s.hasEnvelope = true;
    s.comm = e.fields[1];
    s.length = e.fields[3];
  }
  return s;
}

}  // namespace mtf::patterns
