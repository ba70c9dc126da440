// The Paraver communicator ids the writer gives the communicators of MpiCollectiveEnd
// events (the value of the 50100004 pair), and the "c:appl:id:ntasks:task..." header lines
// that let the reader map them back.
// - A trace laid out from its Paraver header keeps that header's communicator lines: a
//   communicator the reader made from one ("comm APPL:ID") keeps its id.
// - Any other trace: each communicator gets the next id (from 1) at its first collective,
//   and a line listing the tasks of its ranks; a communicator without member list
//   (COMM_SELF) gets one id and line per task that uses it.
// Id 0: Paraver cannot name the communicator (the writer reports it).
//
// Input in time order (ParaverWriter::takeTimeOrder) meets the communicators in another
// order than location-after-location input: the ids are then handed out as they come,
// each use noting where location-after-location input would have met it (useOrder), and
// settle() gives each the id that input would have given it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "converters/paraver/writer_layout.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::paraver {

// The name the reader gives the communicator of a "c:" line, and back.
std::string communicatorName(uint64_t appl, uint64_t id);
bool parseCommunicatorName(std::string_view name, uint64_t& appl, uint64_t& id);

class CommunicatorIds {
 public:
  CommunicatorIds(const Definitions& defs, const RankMap& ranks, const WriterLayout& layout)
      : defs_(defs), ranks_(ranks), layout_(layout) {}
  // `useOrder`: the place of this use in location-after-location input (any value when
  // the input comes so).
  uint64_t idOf(Ref comm, LocationId location, const ThreadPlace& place, uint64_t useOrder = 0);
  // The lines of the ids handed out (none for a trace laid out from a Paraver header).
  const std::vector<std::string>& lines() const { return lines_; }
  // Renumbers the ids in the order of their first use's useOrder (then of the ids), the
  // lines too; returns each old id's new id (index 0 unused), or nothing if none changed.
  std::vector<uint64_t> settle();

 private:
  uint64_t keptId(Ref comm, const ThreadPlace& place) const;
  bool memberTasks(Ref comm, std::vector<uint32_t>& tasks) const;
  static std::string lineOf(uint64_t appl, uint64_t id, const std::vector<uint32_t>& tasks);
  struct Handed {  // an id handed out (id = index + 1)
    uint64_t appl;
    std::vector<uint32_t> tasks;
    uint64_t firstUse;  // the least useOrder
  };

  const Definitions& defs_;
  const RankMap& ranks_;
  const WriterLayout& layout_;
  std::map<std::pair<Ref, uint64_t>, uint64_t> ids_;  // (comm, task for COMM_SELF) -> id
  std::vector<Handed> handed_;
  std::vector<std::string> lines_;
};

}  // namespace mtf::paraver
