// Errors and exit codes (documented in README.md): 0 success, 1 usage, 2 bad input,
// 3 I/O or resource failure. Every message names the file and the place.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mtf {

enum class ExitCode : int { Ok = 0, Usage = 1, BadInput = 2, IoFailure = 3 };

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Bad input. `place` is e.g. "line 12", "byte 4096", "location 3", "record 17"; may be empty.
// Message: "PATH: PLACE: WHAT" (or "PATH: WHAT").
class InputError : public Error {
 public:
  InputError(const std::string& path, const std::string& place, const std::string& what);
};

// The file system or a resource failed (unwritable output, disk full, out of memory).
class IoError : public Error {
 public:
  IoError(const std::string& path, const std::string& what);
};

class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ExitCode::Usage, what) {}
};

// Prints "mtf: warning: TEXT" on stderr, unless warnings are off: mtf-mpi turns them off
// on every process but rank 0, which reads the same definitions and would say the same.
void warn(const std::string& text);
void showWarnings(bool shown);

inline std::string placeLine(uint64_t line) {
  return "line " + std::to_string(line);
}
inline std::string placeByte(uint64_t offset) {
  return "byte " + std::to_string(offset);
}
inline std::string placeRecord(uint64_t index) {
  return "record " + std::to_string(index);
}
inline std::string placeLocation(uint64_t id) {
  return "location " + std::to_string(id);
}

}  // namespace mtf
