// mtf stats TRACE [--json]: the compaction figures of the MTF paper's Table 1, per
// location and in total, plus the bytes of structure and of values in the MTF archive.
// For an .mtf input they are read from the file; for any other input the trace is
// compacted in memory (column chunks counted, not kept) without writing anything.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "compaction/compactor.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::cli {
namespace {

struct StatsOptions {
  std::string trace;
  bool json = false;
  bool lenient = false;
};

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

void runStats(const StatsOptions& o, const GlobalOptions&) {
  nlohmann::ordered_json j;
  if (mtfbin::looksLikeMtfBinary(o.trace)) {
    mtfbin::ArchiveReader reader(o.trace);
    const auto& m = *reader.model();
    std::vector<uint64_t> valueBytes(m.locations.size(), 0);
    for (size_t l = 0; l < m.locations.size(); ++l)
      for (size_t c = 0; c < m.locations[l].columns.size(); ++c)
        valueBytes[l] += reader.loadColumns(l, c).encoded.size() + mtfbin::kChunkHeaderSize;
    j = buildStats(m, reader.sizes(), valueBytes, true);
  } else {
    auto source = openInput(o.trace, o.lenient);
    std::unordered_map<LocationId, uint64_t> bytesOf;
    uint64_t valueBytes = 0, chunks = 0;
    compaction::Compactor compactor({}, [&](LocationId loc, compaction::ColumnChunk&& c) {
      bytesOf[loc] += c.encoded.size() + mtfbin::kChunkHeaderSize;
      valueBytes += c.encoded.size();
      ++chunks;
    });
    source->read(compactor);
    const auto& m = compactor.model();
    std::vector<uint64_t> perLocation;
    for (const auto& l : m.locations) perLocation.push_back(bytesOf[l.location]);
    j = buildStats(m, mtfbin::sizesOf(m, valueBytes, chunks), perLocation, false);
  }
  if (o.json)
    std::cout << j.dump(2) << '\n';
  else
    printText(std::cout, j);
}

void setupStats(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<StatsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "stats",
      "Compaction figures (MTF paper, Table 1): call-tree vs DAG nodes and edges, "
      "messages, compaction rate, MTF archive bytes of structure and values");
  cmd->add_option("TRACE", opts->trace, "Trace of any readable format (.mtf read directly)")
      ->required();
  cmd->add_flag(
      "--json", opts->json,
      "JSON output; keys: format, sizes_from, total{events, tree_nodes, tree_edges, "
      "dag_nodes, dag_edges, messages_before, messages_after, compaction_rate, signatures, "
      "structure_bytes, value_bytes, definition_bytes, index_bytes, file_bytes, "
      "column_chunks}, locations[{location, events, tree_nodes, ..., compaction_rate, "
      "value_bytes}]");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records of the input");
  cmd->callback([opts, &global] { runStats(*opts, global); });
}

MTF_COMMAND(60, "stats", setupStats);

}  // namespace
}  // namespace mtf::cli
