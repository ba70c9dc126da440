// Helpers shared by the Paraver tests: independent counting of .prv records, a sink that
// keeps events, temporary directories.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "converters/paraver/paraver_reader.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"

namespace mtf::paraver::testing {

inline const std::string kLulesh =
    MTF_DATA_DIR "/paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv";
inline const std::string kQsort = MTF_DATA_DIR "/paraver/paraver-kernel-qsort/qsort_beo3.prv";
inline const std::string kQsortGz = MTF_DATA_DIR "/paraver/paraver-kernel-qsort/qsort_beo3.prv.gz";

// Hand-written: threads of one task sending to each other (tests/handmade/README.md).
inline const std::string kThreadMessages =
    MTF_DATA_DIR "/../handmade/paraver-thread-messages/thread_messages.prv";

inline std::vector<std::string> fileLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The record lines ("1:", "2:", "3:", "4:") of a .prv, sorted.
inline std::vector<std::string> sortedRecords(const std::string& path) {
  std::vector<std::string> records;
  for (const std::string& l : fileLines(path))
    if (l.size() > 1 && l[1] == ':' && l[0] >= '1' && l[0] <= '4') records.push_back(l);
  std::sort(records.begin(), records.end());
  return records;
}

// Each thread's state, event and global-operation records ("appl:task:thread" -> lines) in
// the file's order: paraver-kernel orders a thread's records of equal time and type as the
// file has them, and mtf's reader gives a thread's events in the file's order.
inline std::map<std::string, std::vector<std::string>> threadRecords(const std::string& path) {
  std::map<std::string, std::vector<std::string>> threads;
  for (const std::string& l : fileLines(path)) {
    if (l.size() < 2 || l[1] != ':' || (l[0] != '1' && l[0] != '2' && l[0] != '4')) continue;
    std::vector<std::string> f;  // record type, cpu, appl, task, thread, ...
    std::stringstream fields(l);
    for (std::string field; f.size() < 5 && std::getline(fields, field, ':');) f.push_back(field);
    if (f.size() == 5) threads[f[2] + ':' + f[3] + ':' + f[4]].push_back(l);
  }
  return threads;
}

// Counts by record type, computed with std::string tools only (independent of the reader).
struct FileCounts {
  std::map<char, uint64_t> records;
  uint64_t pairs = 0;
};
inline FileCounts countFile(const std::string& path) {
  FileCounts counts;
  for (const std::string& l : sortedRecords(path)) {
    ++counts.records[l[0]];
    if (l[0] == '2') counts.pairs += (std::count(l.begin(), l.end(), ':') - 5) / 2;
  }
  return counts;
}

class CollectSink : public TraceSink {
 public:
  void begin(const Definitions& defs) override {
    defs_ = defs;
    began = true;
  }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ended = true; }
  uint64_t count(EventKind k) const {
    return static_cast<uint64_t>(
        std::count_if(events.begin(), events.end(), [k](const Event& e) { return e.kind == k; }));
  }
  Definitions defs_;
  std::vector<Event> events;
  bool began = false, ended = false;
};

// Each location's events as the reader gives them; `withoutMessageIds`: without the ids the
// reader gives messages that matching in order would not pair (which messages get one
// follows the order of communication records across threads, which Paraver leaves free).
inline std::map<LocationId, std::vector<Event>> eventsByLocation(const std::string& prv,
                                                                 bool withoutMessageIds = false) {
  CollectSink sink;
  ParaverReader(prv, {}).read(sink);
  const Ref id =
      withoutMessageIds ? findAttributeNamed(sink.defs_, kMessageIdAttribute) : kUndefinedRef;
  std::map<LocationId, std::vector<Event>> byLocation;
  for (Event e : sink.events) {
    if (id != kUndefinedRef)
      std::erase_if(e.attributes, [id](const EventAttribute& a) { return a.attribute == id; });
    byLocation[e.location].push_back(std::move(e));
  }
  return byLocation;
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("mtf-paraver-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

}  // namespace mtf::paraver::testing
