// mtf: convert, compact and analyse parallel execution traces.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>

#include "cli/command.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace mtf::cli {

std::vector<CommandEntry>& commandTable() {
  static std::vector<CommandEntry> table;
  return table;
}

int& commandExitCode() {
  static int code = 0;
  return code;
}

}  // namespace mtf::cli

int main(int argc, char** argv) {
  using namespace mtf::cli;
  CLI::App app{
      "mtf: convert, compact and analyse parallel (MPI) execution traces.\n"
      "Exit status: 0 success, 1 usage error, 2 bad input, 3 I/O or resource failure."};
  app.require_subcommand(1);
  GlobalOptions global;
  app.add_flag("-q,--quiet", global.quiet, "No progress messages on stderr");
  auto& table = commandTable();
  // The registrars run in the order the linker puts their files: sorted here, ties by name.
  std::sort(table.begin(), table.end(), [](const CommandEntry& a, const CommandEntry& b) {
    return a.order != b.order ? a.order < b.order : a.name < b.name;
  });
  for (const CommandEntry& c : table) c.setup(app, global);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(mtf::ExitCode::Usage);
  } catch (const mtf::Interrupted& e) {
    std::fprintf(stderr, "mtf: %s\n", mtf::kInterruptedMessage);
    return e.exitCode();
  } catch (const mtf::Error& e) {
    std::fprintf(stderr, "mtf: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "mtf: out of memory\n");
    return static_cast<int>(mtf::ExitCode::IoFailure);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mtf: internal error: %s\n", e.what());
    return static_cast<int>(mtf::ExitCode::IoFailure);
  }
  return commandExitCode();
}
