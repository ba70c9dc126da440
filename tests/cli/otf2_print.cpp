#include "cli/otf2_print.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <sstream>

#include "cli/run_command.hpp"

namespace mtf::test {

std::string otf2PrintName(const std::string& kind) {
  if (kind == "ParameterUnsignedInt") return "PARAMETER_UINT64";
  if (kind == "ParameterInt") return "PARAMETER_INT64";
  std::string out;
  for (size_t i = 0; i < kind.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(kind[i]))) out += '_';
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(kind[i])));
  }
  return out;
}

std::vector<std::string> otf2PrintEventLines(const std::string& anchor) {
  const auto r = run("otf2-print " + anchor, false);
  EXPECT_EQ(r.status, 0) << "otf2-print " << anchor;
  std::vector<std::string> lines;
  std::istringstream in(r.output);
  std::string line;
  bool inEvents = false;
  while (std::getline(in, line)) {
    if (line.rfind("-----", 0) == 0) {
      inEvents = true;
      continue;
    }
    if (inEvents && !line.empty()) lines.push_back(line);
  }
  return lines;
}

std::map<std::string, uint64_t> countByRecord(const std::vector<std::string>& lines) {
  std::map<std::string, uint64_t> counts;
  for (const std::string& l : lines)
    if (!l.empty() && l[0] != ' ') ++counts[l.substr(0, l.find(' '))];
  return counts;
}

}  // namespace mtf::test
