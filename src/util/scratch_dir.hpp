// Scratch directories of a test process: a fresh empty directory under the system temp
// dir, removed with everything in it when the process that made it ends. Set
// MTF_KEEP_TEST_DIRS to keep them for a look after a failure. (Test suites that left
// theirs behind filled a CI machine's disk: some hold generated traces of 56 MB.)
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

namespace mtf::test {

class ScratchDirs {
 public:
  static ScratchDirs& instance() {
    static ScratchDirs dirs;
    return dirs;
  }
  std::filesystem::path fresh(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    fs::create_directories(dir);
    std::lock_guard lock(mutex_);
    dirs_.push_back(dir);
    return dir;
  }
  ~ScratchDirs() {
    // A forked child that exits normally must not remove its parent's directories.
    if (::getpid() != owner_ || std::getenv("MTF_KEEP_TEST_DIRS")) return;
    std::error_code ignored;
    for (const auto& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

 private:
  ScratchDirs() : owner_(::getpid()) {}
  pid_t owner_;
  std::mutex mutex_;
  std::vector<std::filesystem::path> dirs_;
};

// A fresh empty directory named `name`-<pid>, removed when this process ends.
inline std::filesystem::path scratchDir(const std::string& name) {
  return ScratchDirs::instance().fresh(name);
}

}  // namespace mtf::test
