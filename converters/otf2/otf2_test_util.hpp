// Helpers of the OTF2 tests: running otf2-print and collecting what a reader delivers.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf::otf2::testing {

struct CommandResult {
  int status = -1;
  std::string output;
};

inline CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  result.status = pclose(pipe);
  return result;
}

inline std::string quoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

// The event lines otf2-print lists (a record name in capitals, then the location),
// each followed by its "ADDITIONAL ATTRIBUTES" continuation line if any.
inline std::vector<std::string> otf2PrintEventLines(const std::filesystem::path& anchor) {
  const CommandResult r = run("otf2-print " + quoted(anchor));
  std::vector<std::string> lines;
  std::istringstream in(r.output);
  std::string line;
  bool inEvents = false;
  while (std::getline(in, line)) {
    if (line.rfind("----", 0) == 0) inEvents = true;
    if (!inEvents || line.empty() || line.rfind("----", 0) == 0) continue;
    if (std::isupper(static_cast<unsigned char>(line[0])) || !lines.empty()) lines.push_back(line);
  }
  return lines;
}

// Record name as otf2-print writes it -> number of event lines.
inline std::map<std::string, uint64_t> otf2PrintCounts(const std::filesystem::path& anchor) {
  std::map<std::string, uint64_t> counts;
  for (const std::string& line : otf2PrintEventLines(anchor))
    if (std::isupper(static_cast<unsigned char>(line[0]))) ++counts[line.substr(0, line.find(' '))];
  return counts;
}

// "MpiIsendComplete" -> "MPI_ISEND_COMPLETE", the name otf2-print uses.
inline std::string otf2PrintName(std::string_view kind) {
  if (kind == "ParameterInt") return "PARAMETER_INT64";
  if (kind == "ParameterUnsignedInt") return "PARAMETER_UINT64";
  if (kind == "IoChangeStatusFlags") return "IO_CHANGE_FLAGS";
  std::string name;
  for (size_t i = 0; i < kind.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(kind[i]))) name += '_';
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(kind[i])));
  }
  return name;
}

// Keeps copies of everything a reader delivers.
class CollectingSink : public TraceSink {
 public:
  void begin(const Definitions& d) override {
    defs = d;
    ++begins;
  }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ++ends; }
  Definitions defs;
  std::vector<Event> events;
  int begins = 0, ends = 0;
};

}  // namespace mtf::otf2::testing

namespace mtf::otf2::testing {

// A fresh directory under /tmp, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mtf-otf2-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The real OTF2 traces of ../shared/traces (their README lists them).
inline const std::string kTraces = MTF_DATA_DIR "/otf2/";

// A writable copy of the ping-pong archive, renamed to `name` (anchor name.otf2).
inline std::filesystem::path copyPingPong(const std::filesystem::path& dir,
                                          const std::string& name = "traces") {
  namespace fs = std::filesystem;
  const fs::path source = kTraces + "pipit-ping-pong";
  fs::create_directories(dir);
  fs::copy(source / "traces.otf2", dir / (name + ".otf2"));
  fs::copy(source / "traces.def", dir / (name + ".def"));
  fs::copy(source / "traces", dir / name, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  return dir / (name + ".otf2");
}

// Each location's events, in the order they came.
inline std::map<LocationId, std::vector<Event>> eventsByLocation(const std::vector<Event>& events) {
  std::map<LocationId, std::vector<Event>> split;
  for (const Event& e : events) split[e.location].push_back(e);
  return split;
}

// The real traces the lane and time-order tests run on, and their test names.
inline const auto kSeveralRealTraces =
    ::testing::Values(std::string("fastotf2-mi300"), std::string("pipit-ping-pong"),
                      std::string("pipit-ping-pong-papi"), std::string("sst-macro-mpi"));
inline std::string traceTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace mtf::otf2::testing
