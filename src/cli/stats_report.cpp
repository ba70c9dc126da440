#include "cli/stats_report.hpp"

#include <iomanip>

namespace mtf::cli {

namespace {

nlohmann::ordered_json figuresJson(const compaction::CompactionFigures& f) {
  nlohmann::ordered_json j;
  j["events"] = f.events;
  j["tree_nodes"] = f.treeNodes;
  j["tree_edges"] = f.treeEdges;
  j["dag_nodes"] = f.dagNodes;
  j["dag_edges"] = f.dagEdges;
  j["messages_before"] = f.messagesBefore;
  j["messages_after"] = f.messagesAfter;
  j["compaction_rate"] = f.compactionRate();
  return j;
}

}  // namespace

nlohmann::ordered_json buildStats(const compaction::CompactModel& m,
                                  const mtfbin::ArchiveSizes& sizes,
                                  const std::vector<uint64_t>& valueBytesPerLocation,
                                  bool fromFile) {
  nlohmann::ordered_json j;
  j["format"] = m.definitions.info.format;
  j["sizes_from"] = fromFile ? "file" : "in_memory_compaction";
  nlohmann::ordered_json locations = nlohmann::ordered_json::array();
  for (size_t i = 0; i < m.locations.size(); ++i) {
    nlohmann::ordered_json l;
    l["location"] = m.locations[i].location;
    l.update(figuresJson(m.figures(i)));
    l["value_bytes"] = valueBytesPerLocation[i];
    locations.push_back(l);
  }
  nlohmann::ordered_json total = figuresJson(m.totalFigures());
  total["signatures"] = m.signatures.size();
  total["structure_bytes"] = sizes.structure;
  total["value_bytes"] = sizes.values;
  total["definition_bytes"] = sizes.definitions;
  total["index_bytes"] = sizes.index;
  total["file_bytes"] = sizes.file;
  total["column_chunks"] = sizes.columnChunks;
  j["total"] = total;
  j["locations"] = locations;
  return j;
}

void printText(std::ostream& out, const nlohmann::ordered_json& j) {
  out << std::left << std::setw(22) << "location" << std::right;
  for (const char* h : {"events", "tree_N", "tree_E", "dag_N", "dag_E", "msg_0", "msg_c", "CR%"})
    out << std::setw(12) << h;
  out << '\n';
  auto row = [&](const std::string& name, const nlohmann::ordered_json& f) {
    out << std::left << std::setw(22) << name << std::right;
    for (const char* k : {"events", "tree_nodes", "tree_edges", "dag_nodes", "dag_edges",
                          "messages_before", "messages_after"})
      out << std::setw(12) << f[k].get<uint64_t>();
    out << std::setw(12) << std::fixed << std::setprecision(2) << f["compaction_rate"].get<double>()
        << '\n';
  };
  for (const auto& l : j["locations"]) row(std::to_string(l["location"].get<uint64_t>()), l);
  const auto& t = j["total"];
  row("total", t);
  out << "MTF archive bytes (" << j["sizes_from"].get<std::string>() << "): structure "
      << t["structure_bytes"] << ", values " << t["value_bytes"] << ", definitions "
      << t["definition_bytes"] << ", index " << t["index_bytes"] << ", file " << t["file_bytes"]
      << '\n';
}

}  // namespace mtf::cli
