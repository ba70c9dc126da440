#include "program/build_model.hpp"

#include <algorithm>
#include <numeric>

#include "program/grouping.hpp"
#include "program/merge.hpp"

namespace mtf::program {

namespace {

Construct constructOf(const nlr::LoopModel& model, nlr::ElementKey key, uint32_t process) {
  Construct c;
  c.procs = {process};
  if (nlr::isLoop(key)) {
    c.type = ConstructType::Loop;
    c.count = nlr::countOf(key);
    for (nlr::ElementKey k : model.bodies.at(nlr::bodyOf(key)))
      c.body.push_back(constructOf(model, k, process));
    return c;
  }
  c.signature = model.signatures.at(nlr::symbolOf(key));
  c.type = isCollectiveKind(c.signature.kind) ? ConstructType::Collective : ConstructType::Event;
  return c;
}

}  // namespace

System systemOf(const nlr::LoopModel& model, uint32_t process) {
  System s;
  for (nlr::ElementKey k : model.top) s.push_back(constructOf(model, k, process));
  return s;
}

bool inRankOrder(int64_t a, int64_t b) {
  if ((a < 0) != (b < 0)) return b < 0;
  return a < b;
}

ProgramModel buildProgramModel(std::vector<nlr::LocationLoops> locations, unsigned threads) {
  // Processes in rank order (those without a rank last): neighbours merge first.
  std::vector<size_t> order(locations.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return inRankOrder(locations[a].worldRank, locations[b].worldRank);
  });
  ProgramModel model;
  std::vector<System> systems;
  for (size_t i : order) {
    nlr::LocationLoops& l = locations[i];
    const auto process = static_cast<uint32_t>(model.processes.size());
    model.processes.push_back({l.location, l.worldRank, l.name});
    model.eventsIn += l.model.eventsIn;
    systems.push_back(systemOf(l.model, process));
    l.model = nlr::LoopModel{};
  }
  model.constructs = reduceSystems(std::move(systems), model.processes, threads);
  groupSystem(model.constructs, model.processes);
  return model;
}

}  // namespace mtf::program
