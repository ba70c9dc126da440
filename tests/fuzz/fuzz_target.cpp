#include "fuzz_target.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

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

const fs::path& workDir() {
  static const fs::path dir = [] {
    const char* shm = fs::exists("/dev/shm") ? "/dev/shm" : "/tmp";
    fs::path d = fs::path(shm) / ("mtf-fuzz-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace

std::pair<std::string, std::string> splitInput(const uint8_t* data, size_t size,
                                               const std::string& separator) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const size_t at = all.find(separator);
  if (at == std::string::npos) return {all, std::string()};
  return {all.substr(0, at), all.substr(at + separator.size())};
}

int readTraceFromFiles(const std::vector<FuzzFile>& files, const std::string& openPath) {
  // Readers warn on std::cerr (missing .pcf, odd counts); thousands of warnings a second
  // would slow the fuzzer down. Sanitizer and libFuzzer reports do not use std::cerr.
  static const bool quiet = [] {
    std::cerr.rdbuf(nullptr);
    return true;
  }();
  (void)quiet;
  const fs::path dir = workDir();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
  for (const auto& [name, bytes] : files) {
    std::ofstream out(dir / name, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  try {
    ReadOptions opts;
    auto source = openTrace(openPath.empty() ? dir : dir / openPath, opts);
    DropSink sink;
    source->read(sink);
  } catch (const Error&) {
    // A clear refusal is the correct answer to bad input.
  }
  return 0;
}

}  // namespace mtf::fuzz
