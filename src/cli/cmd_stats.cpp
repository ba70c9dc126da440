// mtf stats TRACE [--json]: the compaction figures of the MTF paper's Table 1, per
// location and in total, plus the bytes of structure and of values in the MTF archive.
// For an .mtf input they are read from the file; for any other input the trace is
// compacted in memory (column chunks counted, not kept) without writing anything.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/stats_report.hpp"
#include "compaction/compactor.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::cli {
namespace {

struct StatsOptions {
  std::string trace;
  bool json = false;
  bool lenient = false;
};

void runStats(const StatsOptions& o, const GlobalOptions&) {
  nlohmann::ordered_json j;
  if (mtfbin::looksLikeMtfBinary(o.trace)) {
    mtfbin::ArchiveReader reader(o.trace);
    const auto& m = *reader.model();
    std::vector<uint64_t> valueBytes(m.locations.size(), 0);
    for (size_t l = 0; l < m.locations.size(); ++l)
      for (size_t c = 0; c < m.locations[l].columns.size(); ++c) {
        const uint64_t stored = reader.loadColumns(l, c).encoded.size();
        valueBytes[l] += mtfbin::chunkHeaderSize(reader.version(), stored) + stored;
      }
    j = buildStats(m, reader.sizes(), valueBytes, true);
  } else {
    auto source = openInput(o.trace, o.lenient);
    std::unordered_map<LocationId, uint64_t> bytesOf;
    mtfbin::ChunkTally chunks;
    compaction::Compactor compactor({}, [&](LocationId loc, compaction::ColumnChunk&& c) {
      bytesOf[loc] += chunks.add(c.encoded.size());
    });
    source->read(compactor);
    const auto& m = compactor.model();
    std::vector<uint64_t> perLocation;
    for (const auto& l : m.locations) perLocation.push_back(bytesOf[l.location]);
    j = buildStats(m, mtfbin::sizesOf(m, chunks), perLocation, false);
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
