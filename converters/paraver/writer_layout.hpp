// What the Paraver writer decides from the definitions before any event: where each
// location goes (appl, task, thread), the time unit, the event type and value of each
// region and metric, and the texts of the header, .pcf and .row.
//
// A trace that came from Paraver (it has the "paraver.header" property and its location
// ids fit the header) keeps its header, communicator lines, .pcf and .row verbatim and
// the types/values recorded in region and metric descriptions. Any other trace is laid
// out Extrae-style: one application, a task per location group (process), a thread per
// location, each thread its own CPU, the CPUs numbered node after node as the header's
// resource section "NODES(c1,...,cN)" declares them; MPI calls as 50000001 (point-to-point),
// 50000002 (collectives) or 50000003 (other) events, other regions as 60000019 user functions,
// metrics as 42xxxxxx counters.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "converters/paraver/header.hpp"
#include "converters/paraver/kernel_rules.hpp"
#include "model/definitions.hpp"
#include "util/text_buffer.hpp"

namespace mtf::paraver {

struct ThreadPlace {
  uint32_t appl = 1, task = 1, thread = 1;
  uint64_t globalTask = 0;
  uint64_t slot = 0;  // the location's position + 1 (0: no place)
  // The CPU of the thread's records when an event names none (Paraver origin: the
  // reader's default, position + 1; otherwise the thread's own CPU in the layout).
  uint64_t cpu = 0;
  CpuRange nodeCpus;         // the CPUs the header gives the node of the thread's task
  uint64_t fallbackCpu = 0;  // written instead of a CPU paraver-kernel would refuse
  bool acceptsCpu(uint64_t c) const { return c == 0 || nodeCpus.contains(c); }
};

struct CallCode {
  uint64_t type = 0;
  int64_t value = 0;
  uint32_t state = 1;  // the derived Paraver state while inside this call
  bool mpi = false;
  TextBuffer enterPair, leavePair;  // ":type:value" and ":type:0", formatted once
};

class WriterLayout {
 public:
  explicit WriterLayout(const Definitions& defs);
  WriterLayout(const WriterLayout&) = delete;  // denseCalls_ points into calls_
  WriterLayout& operator=(const WriterLayout&) = delete;

  bool paraverOrigin() const { return paraverOrigin_; }
  // nullptr for a location the definitions do not declare.
  const ThreadPlace* placeOf(LocationId location) const {
    if (location < dense_.size()) return dense_[location].slot ? &dense_[location] : nullptr;
    const auto it = places_.find(location);
    return it == places_.end() ? nullptr : &it->second;
  }
  const CallCode* callOf(Ref region) const {
    if (region < denseCalls_.size()) return denseCalls_[region];
    const auto it = calls_.find(region);
    return it == calls_.end() ? nullptr : &it->second;
  }
  // The counter type of each value of a Metric event referring to `metric`.
  const std::vector<uint64_t>* countersOf(uint64_t metric) const {
    const auto it = counters_.find(metric);
    return it == counters_.end() ? nullptr : &it->second;
  }

  // Model ticks to ticks of the output unit; `exact` false when rounding was needed.
  Tick convertTime(Tick t) const;
  bool exactTime() const { return exactTime_; }
  uint64_t outputResolution() const { return outputResolution_; }

  // The texts to write; `endTime` (in output ticks) is used for a header made here.
  // Header line + communicator/comment lines; `communicatorLines` (collective_comms.hpp)
  // for a header made here.
  std::string headerText(Tick endTime, const std::vector<std::string>& communicatorLines) const;
  // `collectives`: label the pairs of collectives.hpp (added to a kept .pcf without them).
  std::string pcfText(const std::map<uint64_t, bool>& genericTypes, bool collectives) const;
  std::string rowText() const;

 private:
  bool adoptParaverHeader(const Definitions& defs);
  void layOutExtraeStyle(const Definitions& defs);
  void assignExtraeCpus(const Definitions& defs);
  void assignNodeCpus();
  void assignCalls(const Definitions& defs);
  void assignCounters(const Definitions& defs);
  void chooseTimeUnit(const Definitions& defs);

  const Definitions& defs_;
  bool paraverOrigin_ = false;
  Header header_;
  std::unordered_map<LocationId, ThreadPlace> places_;
  std::vector<ThreadPlace> dense_;  // places_ by small location id (slot 0 = none)
  std::vector<std::string> threadNames_, nodeNames_;
  std::unordered_map<Ref, CallCode> calls_;
  std::vector<const CallCode*> denseCalls_;  // calls_ by small region id (null: none)
  std::unordered_map<uint64_t, std::vector<uint64_t>> counters_;
  std::map<uint64_t, std::map<int64_t, std::string>> callNames_;  // type -> value -> name
  std::map<uint64_t, std::string> counterNames_;
  uint64_t outputResolution_ = 1'000'000'000;
  uint64_t multiplier_ = 1;  // exact conversion: (t - offset) * multiplier_
  bool exactTime_ = true;
  uint64_t offset_ = 0;
  uint64_t inputResolution_ = 1'000'000'000;
};

}  // namespace mtf::paraver
