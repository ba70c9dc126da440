// The rules by which BSC's paraver-kernel (the reader of wxParaver and paramedir) accepts
// or skips a record, so that mtf writes only records it accepts and warns about files
// holding records it would skip. Written from reading paraver-kernel's reader
// (utils/traceparser: resourcemodel.cpp, processmodel.cpp, tracebodyio_v1.cpp):
// - the resource section declares nodes and their CPUs: "N(c1,...,cN)" gives node i ci
//   CPUs, numbered globally node after node from 1; "N" alone gives each node one CPU;
//   "0" declares no resources at all;
// - a state, event or communication record (and the receiving end of a communication)
//   is skipped ("Error reading ... record.") unless its appl:task:thread exists in the
//   header and its CPU is 0 or a declared CPU of the node the thread's task runs on;
//   with no resources, only CPU 0 is accepted;
// - global operation records (type 4) are ignored without a message.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "converters/paraver/header.hpp"

namespace mtf::paraver {

// Global CPU numbers [first, last]; empty when first > last.
struct CpuRange {
  uint64_t first = 1, last = 0;
  bool contains(uint64_t cpu) const { return cpu >= first && cpu <= last; }
};

enum class Refusal : uint8_t { None, UnknownThread, CpuBeyondHeader, CpuOfOtherNode };

class KernelRules {
 public:
  // Keeps a reference to `header`, which must outlive the rules.
  explicit KernelRules(const Header& header);
  uint64_t totalCpus() const { return cpuEnd_.empty() ? 0 : cpuEnd_.back(); }
  // The global CPUs of a 1-based node (empty for a node the header does not declare).
  CpuRange cpusOfNode(uint32_t node) const;
  // What paraver-kernel says of `cpu` on a thread whose task runs on `taskNode`.
  Refusal checkCpu(uint64_t cpu, uint32_t taskNode) const;
  // The whole location check of a record end (1-based appl, task, thread as written).
  Refusal check(uint64_t cpu, uint64_t appl, uint64_t task, uint64_t thread) const;
  // The node the header puts a 1-based task on (0 if the task does not exist).
  uint32_t nodeOfTask(uint64_t appl, uint64_t task) const;

 private:
  const Header& header_;
  std::vector<uint64_t> cpuEnd_;  // per node: last global CPU (prefix sums)
};

enum class RecordKind : uint8_t { State, Event, Communication };

// Counts the records paraver-kernel would skip, by record kind and reason, for one
// summary line each (count, first line, highest CPU named) instead of one per record.
class RefusalTally {
 public:
  void add(RecordKind kind, Refusal reason, uint64_t cpu, uint64_t line);
  uint64_t total() const;
  uint64_t count(RecordKind kind, Refusal reason) const;
  // One sentence per (kind, reason), e.g. "12 event records name CPUs up to 8 but the
  // header declares 1 CPU (first at line 3); paraver-kernel skips them".
  std::vector<std::string> describe(uint64_t declaredCpus) const;

 private:
  struct Entry {
    uint64_t count = 0, firstLine = 0, firstCpu = 0, highestCpu = 0;
  };
  std::map<std::pair<RecordKind, Refusal>, Entry> entries_;
};

}  // namespace mtf::paraver
