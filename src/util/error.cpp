#include "util/error.hpp"

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

}  // namespace mtf
