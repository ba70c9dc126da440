// mtf matrix TRACE: the communication matrix (messages or bytes, sender x receiver) of
// the whole program or of one construct of its model, computed from the model by a
// post-order traversal (seed 000, Figure 6), never by counting the events again.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/program_input.hpp"
#include "program/comm_matrix.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

struct MatrixOptions {
  std::string trace;
  bool bytes = false;
  bool csv = false;
  bool json = false;
  std::string construct;
  bool lenient = false;
};

void printCsv(const program::CommMatrix& m) {
  std::cout << "sender,receiver,messages,bytes\n";
  for (const auto& [cell, v] : m)
    std::cout << cell.first << ',' << cell.second << ',' << v.messages << ',' << v.bytes << '\n';
}

void printJson(const program::CommMatrix& m, const MatrixOptions& o) {
  nlohmann::json cells = nlohmann::json::array();
  uint64_t messages = 0, bytes = 0;
  for (const auto& [cell, v] : m) {
    cells.push_back({{"sender", cell.first},
                     {"receiver", cell.second},
                     {"messages", v.messages},
                     {"bytes", v.bytes}});
    messages += v.messages;
    bytes += v.bytes;
  }
  const nlohmann::json j{{"construct", o.construct.empty() ? "" : o.construct},
                         {"cells", cells},
                         {"messages", messages},
                         {"bytes", bytes}};
  std::cout << j.dump() << '\n';
}

// Rows are senders, columns receivers; a cell is messages (or bytes), '.' for none.
void printTable(const program::CommMatrix& m, bool bytes) {
  std::set<int64_t> ranks;
  for (const auto& [cell, v] : m) ranks.insert({cell.first, cell.second});
  std::cout << (bytes ? "bytes" : "messages") << ": sender (rows) x receiver (columns)\n";
  std::cout << std::setw(8) << "";
  for (int64_t r : ranks) std::cout << ' ' << std::setw(8) << r;
  std::cout << '\n';
  for (int64_t s : ranks) {
    std::cout << std::setw(8) << s;
    for (int64_t r : ranks) {
      const auto it = m.find({s, r});
      std::cout << ' ' << std::setw(8);
      if (it == m.end())
        std::cout << '.';
      else
        std::cout << (bytes ? it->second.bytes : it->second.messages);
    }
    std::cout << '\n';
  }
}

void runMatrix(const MatrixOptions& o) {
  if (o.csv && o.json) throw UsageError("--csv and --json exclude each other");
  const ProgramInput input = readProgramModel(o.trace, o.lenient);
  const program::CommMatrix m = o.construct.empty()
                                    ? program::matrixOf(input.model.constructs, input.model)
                                    : program::matrixAt(input.model, o.construct);
  std::ios::sync_with_stdio(false);
  if (o.csv)
    printCsv(m);
  else if (o.json)
    printJson(m, o);
  else
    printTable(m, o.bytes);
  flushStdout();
}

void setupMatrix(CLI::App& app, const GlobalOptions&) {
  auto opts = std::make_shared<MatrixOptions>();
  CLI::App* cmd = app.add_subcommand(
      "matrix",
      "Communication matrix (sender x receiver, world ranks, counted at the sends) of the\n"
      "program or of one construct of its model (mtf model --positions), computed from\n"
      "the model: a loop's matrix is its count times its body's.");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_flag("--bytes", opts->bytes, "Cells are bytes, not messages (table output)");
  cmd->add_flag("--csv", opts->csv, "Rows sender,receiver,messages,bytes");
  cmd->add_flag("--json", opts->json, "JSON: cells with sender, receiver, messages, bytes");
  cmd->add_option(
      "--construct", opts->construct,
      "Only this construct (all its occurrences), by position (e.g. 2.0; see mtf model\n"
      "--positions)");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts] { runMatrix(*opts); });
}

MTF_COMMAND(63, "matrix", setupMatrix);

}  // namespace
}  // namespace mtf::cli
