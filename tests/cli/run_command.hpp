// Runs a shell command and captures its exit status and output, for CLI tests.
#pragma once

#include <string>

namespace mtf::test {

struct CommandResult {
  int status = -1;     // exit status of the command
  std::string output;  // stdout (and stderr when merged)
};

// Runs `command` with /bin/sh; stderr is merged into output unless separateStderr.
CommandResult run(const std::string& command, bool mergeStderr = true);
// Path of the built `mtf` program and of `mtf-gen`.
std::string mtfProgram();
std::string genProgram();
// A fresh empty directory under the system temp dir, named after `name`, removed when the
// test process ends (util/scratch_dir.hpp).
std::string freshTempDir(const std::string& name);
// Reads a whole (small) file.
std::string readFile(const std::string& path);

}  // namespace mtf::test
