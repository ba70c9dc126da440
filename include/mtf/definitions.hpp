// mtf public API: the definitions of a trace (what events refer to), as plain values.
// Everything here is a copy: it stays valid after the Trace it came from is gone.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mtf::api {

using Tick = uint64_t;        // time in ticks; Definitions::resolution ticks per second
using LocationId = uint64_t;  // a location (thread, GPU stream, metric recorder)
inline constexpr uint32_t kNoRef = 0xFFFFFFFFu;  // "no region", "no communicator"

struct Location {
  LocationId id = 0;
  std::string name;       // e.g. "Master thread"
  std::string type;       // "cpu_thread", "gpu", "metric", "unknown" or "other" (as `mtf info`)
  int64_t rank = -1;      // its MPI world rank, -1 if it is not an MPI rank
  uint64_t group = 0;     // its location group (process)
  std::string groupName;  // e.g. "MPI Rank 0"
};

struct Region {
  uint32_t id = kNoRef;
  std::string name;      // e.g. "MPI_Send"
  std::string role;      // "function", "wrapper", "loop", "code", "barrier", "coll_one2all",
                         // "coll_all2one", "coll_all2all", "coll_other", "point2point", "unknown"
  std::string paradigm;  // "user", "compiler", "openmp", "mpi", "unknown"
};

struct Communicator {
  uint32_t id = kNoRef;
  std::string name;                 // e.g. "MPI_COMM_WORLD"
  std::vector<int64_t> worldRanks;  // rank in the communicator -> world rank (-1 unknown)
  bool self = false;                // MPI_COMM_SELF-like: its one rank is the caller
};

struct Definitions {
  std::string format;                       // "otf2", "paraver", "tau", "mtf", "mtf-xml"
  std::string formatVersion;                // the version of the format the input was written in
  std::string creator;                      // e.g. "Score-P 8.1"
  uint64_t resolution = 0;                  // ticks per second
  std::vector<Location> locations;          // in definition order
  std::vector<Region> regions;              // in definition order
  std::vector<Communicator> communicators;  // in definition order
  std::map<std::string, uint64_t> counts;   // definition records by kind ("Region": 42)

  // The entry with this id, or nullptr.
  const Location* location(LocationId id) const;
  const Region* region(uint32_t id) const;
  const Communicator* communicator(uint32_t id) const;
};

}  // namespace mtf::api
