#include "util/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace mtf {

bool stderrIsTerminal() {
  return isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled), last_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  finish();
}

void Progress::maybePrint(uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  std::fprintf(stderr, "\r%s: %llu events", label_.c_str(), static_cast<unsigned long long>(done));
  printed_ = true;
}

void Progress::finish() {
  if (printed_) std::fprintf(stderr, "\r\033[K");
  printed_ = false;
}

}  // namespace mtf
