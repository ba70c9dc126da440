#include "util/error.hpp"

#include <atomic>
#include <cstdio>

namespace mtf {

namespace {
std::string compose(const std::string& path, const std::string& place, const std::string& what) {
  std::string out = path;
  if (!place.empty()) out += ": " + place;
  return out + ": " + what;
}
}  // namespace

InputError::InputError(const std::string& path, const std::string& place, const std::string& what)
    : Error(ExitCode::BadInput, compose(path, place, what)) {}

IoError::IoError(const std::string& path, const std::string& what)
    : Error(ExitCode::IoFailure, compose(path, "", what)) {}

namespace {
std::atomic<bool> warningsShown{true};
}  // namespace

void warn(const std::string& text) {
  if (warningsShown) std::fprintf(stderr, "mtf: warning: %s\n", text.c_str());
}

void showWarnings(bool shown) {
  warningsShown = shown;
}

}  // namespace mtf
