#include "fuzz_target.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "registry/registry.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::fuzz {

namespace {

class DropSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event& e) override { last_ = e.time; }
  void end() override {}

 private:
  volatile Tick last_ = 0;
};

// The folder the inputs are written to, removed when the fuzzer exits (libFuzzer ends with
// exit(), which runs this destructor; a crash leaves the folder for its reproduction).
class WorkDir {
 public:
  WorkDir() {
    const char* shm = fs::exists("/dev/shm") ? "/dev/shm" : "/tmp";
    path_ = fs::path(shm) / ("mtf-fuzz-" + std::to_string(getpid()));
    fs::create_directories(path_);
  }
  ~WorkDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const fs::path& workDir() {
  static const WorkDir dir;
  return dir.path();
}

}  // namespace

std::pair<std::string, std::string> splitInput(const uint8_t* data, size_t size,
                                               const std::string& separator) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const size_t at = all.find(separator);
  if (at == std::string::npos) return {all, std::string()};
  return {all.substr(0, at), all.substr(at + separator.size())};
}

int readTraceFromFiles(const std::vector<FuzzFile>& files, const std::string& openPath,
                       const std::string& format) {
  static const FormatEntry* const reader = formatByName(format);
  if (!reader || !reader->openReader) std::abort();  // a misbuilt target, not a finding
  // Readers warn on std::cerr (missing .pcf, odd counts); thousands of warnings a second
  // would slow the fuzzer down. Sanitizer and libFuzzer reports do not use std::cerr.
  static const bool quiet = [] {
    std::cerr.rdbuf(nullptr);
    // glibc gives freed memory back to the kernel (brk, munmap) after every execution and
    // takes it again in the next one: a fifth of the time went there. Keep it.
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    return true;
  }();
  (void)quiet;
  const fs::path dir = workDir();
  // Files of the previous execution are overwritten in place; only names not written
  // this time are removed (unlinking every file each time cost a tenth of the time).
  static std::set<std::string> previous;
  std::set<std::string> current;
  for (const auto& file : files) current.insert(file.first);
  std::error_code ec;
  for (const std::string& name : previous)
    if (!current.count(name)) fs::remove_all(dir / name, ec);
  previous = current;
  for (const auto& [name, bytes] : files) {
    std::ofstream out(dir / name, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  try {
    ReadOptions opts;
    auto source = reader->openReader(openPath.empty() ? dir : dir / openPath, opts);
    DropSink sink;
    source->read(sink);
  } catch (const Error&) {
    // A clear refusal is the correct answer to bad input.
  }
  return 0;
}

}  // namespace mtf::fuzz
