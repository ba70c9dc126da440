// Builds the model's definitions for a Paraver trace and remembers how Paraver ids map
// onto them. Mapping (the reader's choices, written down):
// - each (application, task, thread) is a location, id = its position in header order;
//   each task is a location group (process) under the system-tree node of its node;
// - MPI_COMM_WORLD holds every task of every application, rank = global task position
//   (first thread's location), so communication records of any application fit it;
// - every "c:" communicator line becomes a sub-communicator of the world;
// - a value of a begin/end type (extrae.hpp's isBeginEndType: MPI calls 50000001..5,
//   functions, and every other type whose .pcf labels 0 "End"/"Outside"/"close") named in
//   the .pcf becomes a region described "paraver TYPE VALUE", entered at the value and
//   left at the type's next 0; a counter type (42xxxxxx) named in the .pcf becomes a
//   metric; values the .pcf does not name stay Generic events;
// - a communication record is an MpiSend and an MpiRecv between the tasks' world ranks;
//   the threads and the pairing the ranks do not say ride in attributes
//   (model/thread_messages.hpp, channel_order.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "converters/paraver/header.hpp"
#include "converters/paraver/pcf.hpp"
#include "model/definitions.hpp"

namespace mtf::paraver {

struct TypeValueHash {
  size_t operator()(const std::pair<uint64_t, int64_t>& k) const {
    return std::hash<uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k.second));
  }
};

struct ModelMapping {
  Ref world = kUndefinedRef;
  std::unordered_map<std::pair<uint64_t, int64_t>, Ref, TypeValueHash> regions;
  std::unordered_map<uint64_t, Ref> metrics;                   // counter type -> metric class
  std::unordered_set<uint64_t> beginEndTypes;                  // types whose values become regions
  std::map<std::pair<uint64_t, uint64_t>, Ref> communicators;  // (appl, comm id) -> comm
  Ref cpuAttribute = kUndefinedRef;
  Ref newLineAttribute = kUndefinedRef;
  Ref logicalSendAttribute = kUndefinedRef;
  Ref timeAttribute = kUndefinedRef;
  Ref logicalRecvAttribute = kUndefinedRef;
  Ref globalOpAttribute = kUndefinedRef;
  Ref commIdAttribute = kUndefinedRef;
  Ref peerThreadAttribute = kUndefinedRef;  // model/thread_messages.hpp
  Ref messageIdAttribute = kUndefinedRef;
  // The .pcf is mtf's (collectives.hpp): its collective pairs become MpiCollective events.
  bool mtfCollectives = false;

  Ref regionOf(uint64_t type, int64_t value) const {
    const auto it = regions.find({type, value});
    return it == regions.end() ? kUndefinedRef : it->second;
  }
  Ref metricOf(uint64_t type) const {
    const auto it = metrics.find(type);
    return it == metrics.end() ? kUndefinedRef : it->second;
  }
};

struct ParaverInputs {
  const Header* header = nullptr;
  const Pcf* pcf = nullptr;  // may be null (no .pcf)
  const Row* row = nullptr;  // may be null (no .row)
};

// Fills `defs` (clock, locations, comms, regions, metrics, attributes) and `mapping`.
void buildDefinitions(const ParaverInputs& inputs, Definitions& defs, ModelMapping& mapping);

}  // namespace mtf::paraver
