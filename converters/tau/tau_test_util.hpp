// Helpers of the TAU tests: scratch directories, collecting what a reader delivers and
// describing events by names (so traces with different definition ids compare).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "model/definitions.hpp"
#include "model/trace_stream.hpp"

namespace mtf::tau::testing {

inline const std::filesystem::path kL5 = MTF_DATA_DIR "/tau/opencl-l5";
inline const std::filesystem::path kL9 = MTF_DATA_DIR "/tau/opencl-l9";

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("mtf-tau-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string readBytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Keeps the definitions and a copy of every event.
class CollectSink : public TraceSink {
 public:
  void begin(const Definitions& d) override { defs = d; }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ended = true; }
  Definitions defs;
  std::vector<Event> events;
  bool ended = false;
};

// "Enter main", "Metric Bytes copied=42 | tau:trigger_single=1", "Generic 60000 3", ...
inline std::string describe(const Event& e, const Definitions& defs) {
  std::string s = std::to_string(e.time) + " " + std::string(nameOf(e.kind));
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Leave:
      s += " " + std::string(defs.region(static_cast<Ref>(e.fields[0])).name);
      break;
    case EventKind::Metric: {
      const DefRecord* cls = defs.find(DefKind::MetricClass, e.fields[0]);
      const DefRecord* member = cls ? defs.find(DefKind::MetricMember, cls->fields[4]) : nullptr;
      s += " " + std::string(member ? defs.string(member->fields[1]) : "?") + "=" +
           std::to_string(static_cast<int64_t>(e.fields[3]));
      break;
    }
    default:
      for (size_t i = 0; i < e.fields.size(); ++i) s += " " + std::to_string(e.fields[i]);
  }
  for (const EventAttribute& a : e.attributes) {
    const DefRecord* attr = defs.find(DefKind::Attribute, a.attribute);
    s += " | " + std::string(attr ? defs.string(attr->fields[1]) : "?") + "=" +
         std::to_string(a.value);
  }
  return s;
}

// Location id -> the described events of that location, in the order delivered.
inline std::map<LocationId, std::vector<std::string>> byLocation(const CollectSink& sink) {
  std::map<LocationId, std::vector<std::string>> out;
  for (const Event& e : sink.events) out[e.location].push_back(describe(e, sink.defs));
  return out;
}

}  // namespace mtf::tau::testing
