// Causal paths (seed 004, section 2.4): the sequences of activities a process runs from an
// activation activity FROM to a deactivation activity TO, each distinct sequence counted
// with its total time. FROM and TO name activities by name ("MPI_Allreduce", "START",
// "END") or by whole call path ("main/iteration/MPI_Allreduce").
// Choices: a path follows one process's order (the sequential half of the seed's
// happened-before; message edges are not followed across processes); it starts at an
// activity matching FROM (one already running continues) and ends at the next activity
// matching TO, inclusive; when FROM and TO match the same activity it ends one path and
// starts the next. Its time runs from the start of FROM to the start of TO. A path longer
// than `maxSteps` activities is dropped and counted, so memory stays bounded.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "tag/tag_builder.hpp"

namespace mtf::tag {

struct CausalPath {
  std::vector<PathId> steps;
  uint64_t count = 0;
  uint64_t totalTicks = 0;
  std::vector<int64_t> ranks;  // world ranks that ran it (sorted)
};

class CausalPaths : public ActivityObserver {
 public:
  CausalPaths(const CallPaths& paths, std::string from, std::string to, size_t maxSteps = 100'000);
  void activity(LocationId location, int64_t worldRank, PathId path, Tick start) override;

  // Distinct paths, most frequent first (then by steps).
  std::vector<CausalPath> results() const;
  uint64_t unfinished() const;  // paths still open at the end
  uint64_t tooLong() const { return tooLong_; }
  bool fromSeen() const { return fromSeen_; }

 private:
  enum Role : uint8_t { kKnown = 1, kFrom = 2, kTo = 4 };
  struct Open {
    bool active = false;
    Tick start = 0;
    std::vector<PathId> steps;
  };
  uint8_t roleOf(PathId path);
  void record(Open& open, int64_t worldRank, Tick end);

  const CallPaths& paths_;
  std::string from_;
  std::string to_;
  size_t maxSteps_;
  std::vector<uint8_t> roles_;  // path -> Role bits
  std::unordered_map<LocationId, Open> open_;
  std::map<std::vector<PathId>, CausalPath> found_;
  uint64_t tooLong_ = 0;
  bool fromSeen_ = false;
};

}  // namespace mtf::tag
