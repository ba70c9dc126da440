// What a cut of a trace must hold, worked out from `mtf dump --events-only` of the uncut
// trace alone (not from mtf's cut stage): the events inside, plus the calls and the
// collectives open at the cut's start entered again and those open at its end left.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace mtf::test {

using Counts = std::map<std::string, uint64_t>;

struct DumpEvent {
  std::string location;  // "L0"
  uint64_t time = 0;
  std::string kind;
  uint64_t weight = 1;  // a Metric counts once per value
};

// The events of a dump, in its order.
std::vector<DumpEvent> parseDump(const std::string& dump);
// Events by kind (a Metric once per value).
Counts countByKind(const std::vector<DumpEvent>& events);

struct ExpectedCut {
  Counts kinds;                       // by kind, the re-entered and left calls included
  uint64_t collectivesOpenAtEnd = 0;  // reported as cut
};
// The cut [from, to) of `events`, as every location of the dump.
ExpectedCut expectedWindow(const std::vector<DumpEvent>& events, uint64_t from, uint64_t to);

// The class a kind counts in when a format cannot keep it as it is (Paraver and TAU: one
// record per message whatever the MPI call, one per metric value); the classes each
// writable format holds (empty: every kind, as it is).
std::string classOf(const std::string& kind);
std::set<std::string> classesHeldBy(const std::string& format);
Counts byClass(const Counts& kinds, const std::set<std::string>& held);
// "  1440 MpiIrecvRequest events (...)" lines of a conversion's "dropped:" report.
Counts droppedByKind(const std::string& stderrText);

}  // namespace mtf::test
