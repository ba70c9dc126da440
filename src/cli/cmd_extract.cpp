// mtf extract TRACE --construct PATH --get time|duration|size: the seed's data extractor
// (section V-B). The positions of every occurrence of one construct of the program model
// on each selected process come from the model; the values are read from the trace's
// events at those positions in one streaming pass.
#include <iostream>
#include <set>
#include <sstream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/program_input.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "program/comm_matrix.hpp"
#include "program/extract.hpp"
#include "program/model_annotation.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

struct ExtractOptions {
  std::string trace;
  std::string construct;
  std::string get;
  std::string ranks;
  bool csv = false;
  bool lenient = false;
};

// "0,1,5" or "0-3,7": world ranks.
std::set<int64_t> parseRanks(const std::string& list) {
  std::set<int64_t> out;
  std::istringstream in(list);
  for (std::string part; std::getline(in, part, ',');) {
    const size_t dash = part.find('-', 1);
    try {
      size_t used = 0;
      const int64_t from = std::stoll(part.substr(0, dash), &used);
      const int64_t to = dash == std::string::npos ? from : std::stoll(part.substr(dash + 1));
      if (used != (dash == std::string::npos ? part.size() : dash) || to < from ||
          to - from > 1 << 24)
        throw std::invalid_argument(part);
      for (int64_t r = from; r <= to; ++r) out.insert(r);
    } catch (const std::exception&) {
      throw UsageError("--ranks: '" + part + "' is not a rank or a range such as 0-3");
    }
  }
  return out;
}

program::ExtractValue valueOf(const std::string& get) {
  if (get == "time") return program::ExtractValue::Time;
  if (get == "duration") return program::ExtractValue::Duration;
  if (get == "size") return program::ExtractValue::Size;
  throw UsageError("--get: expected time, duration or size, not '" + get + "'");
}

std::vector<uint32_t> selectedProcesses(const program::ProgramModel& model,
                                        const std::string& list) {
  const std::set<int64_t> ranks = parseRanks(list);
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < model.processes.size(); ++p)
    if (list.empty() || ranks.count(model.processes[p].worldRank)) out.push_back(p);
  return out;
}

uint64_t value(const program::Occurrence& o, program::ExtractValue v) {
  if (v == program::ExtractValue::Duration) return o.lastTime - o.firstTime;
  return v == program::ExtractValue::Size ? o.size : o.firstTime;
}

void print(const ExtractOptions& o, const program::ProgramModel& model,
           const std::vector<program::Occurrence>& all, uint64_t resolution) {
  const program::ExtractValue v = valueOf(o.get);
  const size_t depth = all.empty() ? 0 : all.front().indices.size();
  if (o.csv) {
    std::cout << "rank";
    for (size_t k = 0; k < depth; ++k) std::cout << ",i" << k;
    std::cout << ',' << o.get << '\n';
  } else {
    std::cout << "# " << o.get << " of construct " << o.construct << " ("
              << (v == program::ExtractValue::Size
                      ? "bytes"
                      : "ticks, " + std::to_string(resolution) + " per second")
              << "), one line per occurrence\n";
  }
  for (const program::Occurrence& occ : all) {
    if (!occ.found)
      throw Error(ExitCode::BadInput,
                  o.trace + ": the trace ends before an occurrence of " + o.construct);
    const int64_t rank = model.processes[occ.process].worldRank;
    if (o.csv) {
      std::cout << rank;
      for (uint64_t i : occ.indices) std::cout << ',' << i;
      std::cout << ',' << value(occ, v) << '\n';
      continue;
    }
    std::cout << "rank " << rank;
    for (size_t k = 0; k < occ.indices.size(); ++k) std::cout << " i" << k << '=' << occ.indices[k];
    std::cout << ' ' << o.get << '=' << value(occ, v) << '\n';
  }
}

// The trace's events; on a .mtf archive only the chunks of the selected processes.
std::unique_ptr<TraceSource> valueSource(const ExtractOptions& o,
                                         const program::ProgramModel& model,
                                         const std::vector<program::Occurrence>& occurrences) {
  if (detectInputFormat(o.trace).name != "mtf") return openInput(o.trace, o.lenient);
  std::set<LocationId> locations;
  for (const program::Occurrence& occ : occurrences)
    locations.insert(model.processes[occ.process].location);
  ReadOptions options;
  options.lenient = o.lenient;
  auto archive = std::make_unique<mtfbin::ArchiveSource>(o.trace, options);
  archive->selectLocations({locations.begin(), locations.end()});
  return archive;
}

void runExtract(const ExtractOptions& o) {
  const program::ExtractValue v = valueOf(o.get);
  const ProgramInput input = readProgramModel(o.trace, o.lenient);
  const program::Construct& target = program::constructAt(input.model, o.construct);
  if (v == program::ExtractValue::Size && target.isLoop())
    throw UsageError("--get size: construct " + o.construct + " is a loop, not a message");
  std::vector<program::Occurrence> occurrences =
      program::occurrencesOf(input.model, o.construct, selectedProcesses(input.model, o.ranks));
  program::ExtractSink sink(input.model, occurrences, program::modelSignatureOptions());
  valueSource(o, input.model, occurrences)->read(sink);
  std::ios::sync_with_stdio(false);
  print(o, input.model, occurrences, input.defs.clock.resolution);
  flushStdout();
}

void setupExtract(CLI::App& app, const GlobalOptions&) {
  auto opts = std::make_shared<ExtractOptions>();
  CLI::App* cmd = app.add_subcommand(
      "extract",
      "Data extractor: one record per occurrence of a construct of the program model\n"
      "(mtf model --positions) on each selected rank, with the indices of the loops around\n"
      "it (from 1) and a value read from the trace: time (of its first event, ticks),\n"
      "duration (first to last event, ticks) or size (of a message, bytes).");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_option("--construct", opts->construct, "Position of the construct, e.g. 2.1")
      ->required();
  cmd->add_option("--get", opts->get, "time, duration or size")->required();
  cmd->add_option("--ranks", opts->ranks, "Only these world ranks, e.g. 0,1,5 or 0-3");
  cmd->add_flag("--csv", opts->csv, "Rows rank,i0,...,VALUE");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts] { runExtract(*opts); });
}

MTF_COMMAND(64, "extract", setupExtract);

}  // namespace
}  // namespace mtf::cli
