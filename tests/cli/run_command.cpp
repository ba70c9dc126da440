#include "cli/run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/scratch_dir.hpp"

namespace mtf::test {

CommandResult run(const std::string& command, bool mergeStderr) {
  CommandResult result;
  const std::string full = command + (mergeStderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(full.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 65536> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return result;
}

std::string mtfProgram() {
  return std::string(MTF_BINARY_DIR) + "/mtf";
}
std::string genProgram() {
  return std::string(MTF_BINARY_DIR) + "/mtf-gen";
}

std::string freshTempDir(const std::string& name) {
  return scratchDir("mtf-test-" + name).string();
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace mtf::test
