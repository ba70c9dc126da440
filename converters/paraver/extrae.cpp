#include "converters/paraver/extrae.hpp"

#include "converters/paraver/fields.hpp"

namespace mtf::paraver {

namespace {
constexpr std::string_view kTagPrefix = "paraver ";

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

bool isBeginEndLabel(std::string_view zeroLabel) {
  for (const std::string_view prefix : {"End", "Outside", "close", "Close"})
    if (zeroLabel.substr(0, prefix.size()) == prefix) return true;
  return false;
}

bool isBeginEndType(uint64_t type, std::string_view typeLabel, std::string_view zeroLabel,
                    size_t namedNonZeroValues) {
  if (isMpiCallType(type) || isFunctionType(type)) return true;
  if (isCounterType(type) || namedNonZeroValues == 0 || !isBeginEndLabel(zeroLabel)) return false;
  if (type >= 30000000 && type <= 30999999) return false;  // samples
  if (type >= 70000000 && type <= 89999999) return false;  // callers, caller lines
  if (type == kWithinTaskgroupType) return false;
  // Extrae 2 labels them "User function line", later versions "... line and file".
  return !typeLabel.ends_with(" line and file") && !typeLabel.ends_with(" line");
}

std::string regionTag(uint64_t type, int64_t value) {
  return std::string(kTagPrefix) + std::to_string(type) + " " + std::to_string(value);
}

bool parseRegionTag(std::string_view description, uint64_t& type, int64_t& value) {
  if (description.substr(0, kTagPrefix.size()) != kTagPrefix) return false;
  description.remove_prefix(kTagPrefix.size());
  const size_t space = description.find(' ');
  if (space == std::string_view::npos) return false;
  if (!parseUnsigned(description.substr(0, space), type)) return false;
  const std::string_view rest = description.substr(space + 1);
  FieldCursor c(rest);
  return rest.find(':') == std::string_view::npos && c.nextSigned(value) && c.atEnd();
}

std::string metricTag(uint64_t type) {
  return std::string(kTagPrefix) + std::to_string(type);
}

bool parseMetricTag(std::string_view description, uint64_t& type) {
  if (description.substr(0, kTagPrefix.size()) != kTagPrefix) return false;
  return parseUnsigned(description.substr(kTagPrefix.size()), type);
}

std::string companionPath(const std::string& prvPath, const char* extension) {
  std::string base = prvPath;
  if (endsWith(base, ".gz")) base.resize(base.size() - 3);
  if (endsWith(base, ".prv")) base.resize(base.size() - 4);
  return base + extension;
}

}  // namespace mtf::paraver
