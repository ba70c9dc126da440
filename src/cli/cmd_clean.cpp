// mtf clean DIR: removes the staging directories that runs killed beyond any handler
// (SIGKILL, the OOM killer, a lost node under mpirun) left in DIR. Every writing run
// already removes those of dead processes of its own host; this also removes those of
// other hosts, whose owner cannot be checked from here. Only directories with mtf's owner
// file are touched (util/staging_owner.hpp), never one whose owner runs on this host.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "util/error.hpp"
#include "util/staging_owner.hpp"

namespace mtf::cli {
namespace {

namespace fs = std::filesystem;
using staging::OwnerState;

struct CleanOptions {
  std::string dir;
  bool json = false;
  bool dryRun = false;
};

const char* reasonOf(OwnerState state) {
  switch (state) {
    case OwnerState::Dead:
      return "owner dead";
    case OwnerState::OtherHost:
      return "owner on another host";
    case OwnerState::Alive:
      return "owner running";
  }
  return "";
}

nlohmann::json entryJson(const staging::Leftover& l) {
  return {{"path", l.dir.string()},
          {"host", l.owner.host},
          {"pid", l.owner.pid},
          {"reason", reasonOf(l.state)}};
}

void runClean(const CleanOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) throw InputError(o.dir, "", "not a directory");
  nlohmann::json removed = nlohmann::json::array(), kept = nlohmann::json::array(),
                 failed = nlohmann::json::array();
  for (const staging::Leftover& l : staging::findLeftovers(o.dir)) {
    const std::string what =
        l.dir.string() + " (" + staging::describe(l.owner) + ", " + reasonOf(l.state) + ")";
    if (l.state == OwnerState::Alive) {
      kept.push_back(entryJson(l));
      if (!o.json) std::cout << "kept " << what << "\n";
    } else if (o.dryRun || staging::removeLeftover(l)) {
      removed.push_back(entryJson(l));
      if (!o.json) std::cout << (o.dryRun ? "would remove " : "removed ") << what << "\n";
    } else {
      failed.push_back(entryJson(l));
      if (!o.json) std::cout << "could not remove " << what << "\n";
    }
  }
  if (o.json) {
    const nlohmann::json out = {{"directory", o.dir},
                                {"dry_run", o.dryRun},
                                {"removed", removed},
                                {"kept", kept},
                                {"failed", failed}};
    std::cout << out.dump(2) << "\n";
  } else if (removed.empty() && kept.empty() && failed.empty()) {
    std::cout << "nothing to clean in " << o.dir << "\n";
  }
  flushStdout();
  if (!failed.empty()) commandExitCode() = static_cast<int>(ExitCode::IoFailure);
}

void setupClean(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<CleanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "clean",
      "Remove the staging directories (.NAME.mtf-tmp-N/) that killed runs left in DIR: those\n"
      "of dead processes of this host (every writing run removes these itself) and those of\n"
      "other hosts (after a crash under mpirun; run it when no mtf writes into DIR from\n"
      "there). Only directories mtf created are touched, never one of a running process.");
  cmd->add_option("DIR", o->dir, "Folder to clean")->required();
  cmd->add_flag("--json", o->json,
                "JSON: directory, dry_run, removed/kept/failed (path, host, "
                "pid, reason)");
  cmd->add_flag("--dry-run", o->dryRun, "Only list what would be removed");
  cmd->callback([o] { runClean(*o); });
}

MTF_COMMAND(90, "clean", setupClean);

}  // namespace
}  // namespace mtf::cli
