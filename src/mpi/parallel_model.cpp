#include "mpi/parallel_model.hpp"

#include <algorithm>
#include <unordered_map>

#include "mpi/model_reduction.hpp"
#include "program/build_model.hpp"
#include "program/grouping.hpp"
#include "util/blob_cursor.hpp"

namespace mtf::mpi {

namespace {

struct Leaf {
  program::Process process;
  uint64_t eventsIn = 0;
};

std::string encodeLeaves(const std::vector<nlr::LocationLoops>& mine) {
  std::string out;
  putBlobVarint(out, mine.size());
  for (const nlr::LocationLoops& l : mine) {
    putBlobVarint(out, l.location);
    putBlobVarint(out, blobZigzag(l.worldRank));
    putBlobString(out, l.name);
    putBlobVarint(out, l.model.eventsIn);
  }
  return out;
}

std::vector<Leaf> decodeLeaves(const std::vector<std::string>& all) {
  const std::string source = "mtf-mpi";
  std::vector<Leaf> leaves;
  for (const std::string& bytes : all) {
    BlobCursor in(bytes, source, "program model processes");
    for (uint64_t n = in.varint(); n > 0; --n) {
      Leaf leaf;
      leaf.process.location = in.varint();
      leaf.process.worldRank = blobUnzigzag(in.varint());
      leaf.process.name = std::string(in.string());
      leaf.eventsIn = in.varint();
      leaves.push_back(std::move(leaf));
    }
  }
  return leaves;
}

// buildProgramModel's order: NlrSink::results() order over all locations (definition
// order, undefined ones after by id), then stably by world rank, ranks before none.
void sortLikeBuildProgramModel(std::vector<Leaf>& leaves, const Definitions& defs) {
  const DefinitionOrder order(defs);
  std::sort(leaves.begin(), leaves.end(), [&](const Leaf& a, const Leaf& b) {
    return order.key(a.process.location) < order.key(b.process.location);
  });
  std::stable_sort(leaves.begin(), leaves.end(), [](const Leaf& a, const Leaf& b) {
    return program::inRankOrder(a.process.worldRank, b.process.worldRank);
  });
}

}  // namespace

program::ProgramModel reduceProgramModel(World& world, std::vector<nlr::LocationLoops> mine,
                                         const Definitions& defs) {
  std::vector<Leaf> leaves = decodeLeaves(world.allGather(encodeLeaves(mine)));
  sortLikeBuildProgramModel(leaves, defs);
  program::ProgramModel model;
  std::unordered_map<LocationId, uint32_t> leafOf;
  for (const Leaf& leaf : leaves) {
    leafOf.emplace(leaf.process.location, static_cast<uint32_t>(model.processes.size()));
    model.processes.push_back(leaf.process);
    model.eventsIn += leaf.eventsIn;
  }
  PartialReduction reduction(leaves.size(), &model.processes);
  for (nlr::LocationLoops& l : mine) {
    const uint32_t index = leafOf.at(l.location);
    reduction.addLeaf(index, program::systemOf(l.model, index));
    l.model = nlr::LoopModel{};
  }
  reduction.reduce();
  world.reduceToRoot([&] { return reduction.encode(); },
                     [&](std::string&& bytes) {
                       reduction.decodeAndAbsorb(bytes);
                       reduction.reduce();
                     });
  if (!world.isRoot()) return {};
  model.constructs = reduction.takeRoot();
  program::groupSystem(model.constructs, model.processes);
  return model;
}

}  // namespace mtf::mpi
