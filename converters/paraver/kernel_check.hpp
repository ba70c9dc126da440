// Checks a whole .prv (or .prv.gz) file the way paraver-kernel loads it (see
// kernel_rules.hpp): which records it accepts and which it skips, and how many messages
// its communication matrix counts. Independent of mtf's reader (its own line splitting),
// so the tests can hold every Paraver file mtf writes to paraver-kernel's rules.
#pragma once

#include <cstdint>
#include <string>

namespace mtf::paraver {

struct KernelCheck {
  uint64_t endTime = 0;          // the header's end time
  uint64_t declaredCpus = 0;     // what the resource section declares
  uint64_t highestCpu = 0;       // the highest CPU any record names
  uint64_t accepted[4] = {};     // by record type - 1 (state, event, communication, global)
  uint64_t refused[4] = {};      // skipped with "Error reading ... record."
  uint64_t sendsCounted = 0;     // accepted communications sent by the end time
  uint64_t recordsAfterEnd = 0;  // accepted records beginning after the end time
  std::string firstRefused;      // "line N: record" of the first skipped record
  uint64_t refusedTotal() const { return refused[0] + refused[1] + refused[2]; }
  uint64_t acceptedTotal() const { return accepted[0] + accepted[1] + accepted[2]; }
  // paraver-kernel refuses a trace with no record at all ("empty body").
  bool loadable() const { return acceptedTotal() > 0; }
};

// Throws InputError if the header is malformed (paraver-kernel would not load the file).
KernelCheck checkLikeParaverKernel(const std::string& prvPath);

}  // namespace mtf::paraver
