#include "mpi/model_reduction.hpp"

#include "program/merge.hpp"
#include "program/model_blob.hpp"
#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::mpi {

PartialReduction::PartialReduction(uint64_t leaves, const std::vector<program::Process>* processes)
    : leaves_(leaves), processes_(processes) {}

void PartialReduction::addLeaf(uint64_t index, program::System system) {
  nodes_[{0, index}] = std::move(system);
}

void PartialReduction::absorb(PartialReduction&& other) {
  for (auto& [key, system] : other.nodes_) nodes_[key] = std::move(system);
  other.nodes_.clear();
}

uint32_t PartialReduction::rootLevel() const {
  uint32_t level = 0;
  while ((uint64_t{1} << level) < leaves_) ++level;
  return level;
}

void PartialReduction::reduce() {
  const uint32_t top = rootLevel();
  // Ascending (level, index): a parent made here is met again later in the same pass.
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    const auto [level, index] = it->first;
    if (level >= top || index % 2 == 1) {
      ++it;
      continue;
    }
    const Key parent{level + 1, index / 2};
    const Key right{level, index + 1};
    if (!exists(right)) {  // goes up alone, as in reduceSystems
      nodes_[parent] = std::move(it->second);
      it = nodes_.erase(it);
      continue;
    }
    const auto r = nodes_.find(right);
    if (r == nodes_.end()) {
      ++it;
      continue;
    }
    nodes_[parent] =
        program::mergeSystems(std::move(it->second), std::move(r->second), *processes_);
    nodes_.erase(r);
    it = nodes_.erase(it);
  }
}

bool PartialReduction::complete() const {
  return leaves_ == 0 || nodes_.count({rootLevel(), 0}) == 1;
}

program::System PartialReduction::takeRoot() {
  if (leaves_ == 0) return {};
  const auto it = nodes_.find({rootLevel(), 0});
  if (it == nodes_.end()) throw std::logic_error("program model reduction is not complete");
  return std::move(it->second);
}

// Each node as (level, index, program.model blob of its system); the blob's process list
// carries ranks only, the names staying with every process's own list.
std::string PartialReduction::encode() const {
  program::ProgramModel carrier;
  for (const program::Process& p : *processes_)
    carrier.processes.push_back({p.location, p.worldRank, {}});
  std::string out;
  putBlobVarint(out, nodes_.size());
  for (const auto& [key, system] : nodes_) {
    putBlobVarint(out, key.first);
    putBlobVarint(out, key.second);
    carrier.constructs = system;
    putBlobString(out, program::encodeProgramModel(carrier));
  }
  return out;
}

void PartialReduction::decodeAndAbsorb(const std::string& bytes) {
  const std::string source = "mtf-mpi";
  BlobCursor in(bytes, source, "program model reduction");
  for (uint64_t n = in.varint(); n > 0; --n) {
    const auto level = static_cast<uint32_t>(in.varint());
    const uint64_t index = in.varint();
    const std::string_view blob = in.string();
    nodes_[{level, index}] =
        program::decodeProgramModel(blob, "mtf-mpi program model reduction").constructs;
  }
}

}  // namespace mtf::mpi
