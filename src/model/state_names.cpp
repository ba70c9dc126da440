#include "model/state_names.hpp"

#include <cctype>
#include <charconv>
#include <string_view>

namespace mtf {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "7    Scheduling and Fork/Join" -> 7 and its label; false for anything else.
bool parseStateLine(std::string_view line, uint64_t& state, std::string_view& label) {
  const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), state);
  if (error != std::errc() || end == line.data()) return false;
  label = trim(line.substr(static_cast<size_t>(end - line.data())));
  return !label.empty() && label.size() < line.size();
}

}  // namespace

StateNames::StateNames(const TraceInfo& info) {
  const auto pcf = info.properties.find("paraver.pcf");
  if (pcf == info.properties.end()) return;
  std::string_view text = pcf->second;
  bool inStates = false;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = trim(text.substr(0, newline));
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    if (line == "STATES") {
      inStates = true;
      continue;
    }
    uint64_t state = 0;
    std::string_view label;
    if (inStates && parseStateLine(line, state, label))
      labels_.emplace(state, std::string(label));
    else if (inStates)
      inStates = false;  // a blank line or the next section
  }
}

std::string StateNames::nameOf(uint64_t state) const {
  const auto it = labels_.find(state);
  return it == labels_.end() ? "State " + std::to_string(state) : it->second;
}

}  // namespace mtf
