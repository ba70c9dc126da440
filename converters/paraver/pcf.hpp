// The .pcf (names of states, event types and values) and .row (names of CPUs, nodes,
// threads) companions of a .prv. Both are optional.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mtf::paraver {

struct EventTypeInfo {
  uint32_t gradient = 0;
  std::string label;
  std::map<int64_t, std::string> values;
};

struct Pcf {
  std::map<uint64_t, std::string> states;
  std::map<uint64_t, EventTypeInfo> types;
  // The label of `value` of `type`, or nullptr.
  const std::string* valueLabel(uint64_t type, int64_t value) const;
  const std::string* typeLabel(uint64_t type) const;
};

// Parses .pcf text. Unknown sections are skipped; a malformed line in a known section
// throws InputError(path, "line N", ...).
Pcf parsePcf(std::string_view text, const std::string& path);

// LEVEL name -> labels, e.g. "THREAD" -> {"THREAD 1.1.1", ...}.
using Row = std::map<std::string, std::vector<std::string>>;
Row parseRow(std::string_view text, const std::string& path);

// Reads a whole small file; false if it does not exist (throws IoError if unreadable).
bool readSmallFile(const std::string& path, std::string& text);

}  // namespace mtf::paraver
