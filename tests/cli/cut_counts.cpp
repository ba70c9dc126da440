#include "cli/cut_counts.hpp"

#include <sstream>

namespace mtf::test {

std::vector<DumpEvent> parseDump(const std::string& dump) {
  std::vector<DumpEvent> out;
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    DumpEvent e;
    std::string countField;
    if (!(words >> e.location >> e.time >> e.kind) || e.location[0] != 'L') continue;
    if (e.kind == "Metric" && words >> countField >> countField &&
        countField.rfind("count=", 0) == 0)
      e.weight = std::stoull(countField.substr(6));
    out.push_back(e);
  }
  return out;
}

Counts countByKind(const std::vector<DumpEvent>& events) {
  Counts counts;
  for (const DumpEvent& e : events) counts[e.kind] += e.weight;
  return counts;
}

namespace {

struct Replay {
  uint64_t depth = 0;
  bool collective = false;
  void take(const DumpEvent& e) {
    if (e.kind == "Enter") ++depth;
    if (e.kind == "Leave" && depth > 0) --depth;
    if (e.kind == "MpiCollectiveBegin") collective = true;
    if (e.kind == "MpiCollectiveEnd") collective = false;
  }
};

}  // namespace

ExpectedCut expectedWindow(const std::vector<DumpEvent>& events, uint64_t from, uint64_t to) {
  ExpectedCut cut;
  std::map<std::string, Replay> atStart, atEnd;
  for (const DumpEvent& e : events) {
    Replay& start = atStart[e.location];  // every location is cut
    Replay& end = atEnd[e.location];
    if (e.time < from) start.take(e);
    if (e.time < to) end.take(e);
    if (e.time >= from && e.time < to) cut.kinds[e.kind] += e.weight;
  }
  for (const auto& [location, r] : atStart) {
    cut.kinds["Enter"] += r.depth;
    cut.kinds["MpiCollectiveBegin"] += r.collective;
  }
  for (const auto& [location, r] : atEnd) {
    cut.kinds["Leave"] += r.depth;
    cut.collectivesOpenAtEnd += r.collective;
  }
  std::erase_if(cut.kinds, [](const auto& kv) { return kv.second == 0; });
  return cut;
}

std::string classOf(const std::string& kind) {
  if (kind == "MpiSend" || kind == "MpiIsend") return "messages sent";
  if (kind == "MpiRecv" || kind == "MpiIrecv") return "messages received";
  if (kind == "Metric") return "metric values";
  return kind;
}

std::set<std::string> classesHeldBy(const std::string& format) {
  const std::set<std::string> common = {"Enter", "Leave", "messages sent", "messages received",
                                        "metric values"};
  if (format == "tau") return common;
  if (format == "paraver") {  // collectives as Extrae's global OP pairs
    std::set<std::string> paraver = common;
    paraver.insert({"MpiCollectiveBegin", "MpiCollectiveEnd"});
    return paraver;
  }
  return {};
}

Counts byClass(const Counts& kinds, const std::set<std::string>& held) {
  Counts classes;
  for (const auto& [kind, n] : kinds) {
    const std::string c = held.empty() ? kind : classOf(kind);
    if (held.empty() || held.count(c)) classes[c] += n;
  }
  return classes;
}

Counts droppedByKind(const std::string& stderrText) {
  Counts dropped;
  std::istringstream in(stderrText);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    uint64_t n = 0;
    std::string kind, what;
    if (line.rfind("  ", 0) == 0 && words >> n >> kind >> what && what == "events")
      dropped[kind] += n;
  }
  return dropped;
}

}  // namespace mtf::test
