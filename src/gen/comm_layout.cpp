#include "gen/comm_layout.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "model/mpi_ranks.hpp"

namespace mtf::gen {

std::vector<std::pair<uint32_t, uint32_t>> talkingPairs(const GenOptions& o) {
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  const auto add = [&pairs](uint32_t a, uint32_t b) {
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  };
  for (uint32_t r = 0; r < o.ranks; ++r) {
    if (o.kernel == Kernel::Ring) add(r, (r + 1) % o.ranks);
    if (o.kernel == Kernel::MasterWorker && r > 0) add(0, r);
    if (o.kernel == Kernel::Butterfly)
      for (uint32_t bit = 1; bit < o.ranks; bit <<= 1) add(r, r ^ bit);
  }
  return {pairs.begin(), pairs.end()};
}

CommLayout::CommLayout(DefinitionBuilder& builder, const GenOptions& options, Ref world)
    : world_(world) {
  if (options.selfMessages)
    commSelf_ = defineMpiSelfComm(builder, "MPI_COMM_SELF", selfGroup(builder));
  if (!options.splitComms) return;
  grid_ = options.kernel == Kernel::Wavefront || options.kernel == Kernel::Halo;
  if (grid_)
    defineGrid(builder, options);
  else
    definePairs(builder, options);
}

Ref CommLayout::selfGroup(DefinitionBuilder& builder) {
  if (selfGroup_ == kUndefinedRef) selfGroup_ = defineMpiSelfGroup(builder);
  return selfGroup_;
}

Ref CommLayout::define(DefinitionBuilder& builder, const std::string& name,
                       const std::vector<uint64_t>& worldRanks) {
  if (worldRanks.size() == 1) return defineMpiSelfComm(builder, name, selfGroup(builder), world_);
  return defineMpiComm(builder, name, worldRanks, world_);
}

void CommLayout::defineGrid(DefinitionBuilder& builder, const GenOptions& o) {
  gridX_ = o.gridX;
  for (uint32_t row = 0; row < o.gridY; ++row) {
    std::vector<uint64_t> members;
    for (uint32_t col = 0; col < o.gridX; ++col) members.push_back(uint64_t{row} * o.gridX + col);
    rows_.push_back(define(builder, "row " + std::to_string(row), members));
  }
  for (uint32_t col = 0; col < o.gridX; ++col) {
    std::vector<uint64_t> members;
    for (uint32_t row = 0; row < o.gridY; ++row) members.push_back(uint64_t{row} * o.gridX + col);
    columns_.push_back(define(builder, "column " + std::to_string(col), members));
  }
}

void CommLayout::definePairs(DefinitionBuilder& builder, const GenOptions& o) {
  for (const auto& [low, high] : talkingPairs(o))
    pairs_[{low, high}] =
        define(builder, "pair " + std::to_string(low) + "-" + std::to_string(high), {low, high});
}

Route CommLayout::route(uint32_t self, uint32_t peer) const {
  if (self == peer && commSelf_ != kUndefinedRef) return {commSelf_, 0};
  if (grid_) {
    if (self / gridX_ == peer / gridX_) return {rows_[self / gridX_], peer % gridX_};
    if (self % gridX_ == peer % gridX_) return {columns_[self % gridX_], peer / gridX_};
  } else if (const auto it = pairs_.find({std::min(self, peer), std::max(self, peer)});
             it != pairs_.end()) {
    return {it->second, peer < self ? 0u : 1u};
  }
  return {world_, peer};
}

}  // namespace mtf::gen
