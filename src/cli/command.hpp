// Each command of `mtf` lives in its own cmd_*.cpp file and registers itself with
// MTF_COMMAND; main.cpp builds the CLI11 app from the registered commands.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace mtf::cli {

// Options every command shares.
struct GlobalOptions {
  bool quiet = false;  // -q: no progress on stderr
};

// A command adds its subcommand to `app` and sets its callback. The callback throws
// mtf::Error (or a subclass) on failure; main turns that into a message and exit code.
using CommandSetup = std::function<void(CLI::App& app, const GlobalOptions& global)>;

struct CommandEntry {
  int order;  // position in `mtf --help` (equal orders: by name)
  std::string name;
  CommandSetup setup;
};

std::vector<CommandEntry>& commandTable();

struct CommandRegistrar {
  CommandRegistrar(int order, std::string name, CommandSetup setup) {
    commandTable().push_back({order, std::move(name), std::move(setup)});
  }
};

// Set by a command's callback; main returns it (0 unless the command says otherwise,
// e.g. `validate` finding problems).
int& commandExitCode();

}  // namespace mtf::cli

#define MTF_COMMAND_CAT2(a, b) a##b
#define MTF_COMMAND_CAT(a, b) MTF_COMMAND_CAT2(a, b)
// MTF_COMMAND(order, "name", setupFunction)
#define MTF_COMMAND(order, name, fn)                                                          \
  static const ::mtf::cli::CommandRegistrar MTF_COMMAND_CAT(mtf_command_, __COUNTER__)(order, \
                                                                                       name, fn)
