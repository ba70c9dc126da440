// The first line of a .prv (and the communicator lines after it):
// #Paraver (dd/mm/yy at hh:mm):FTIME[_ns|_us|_ms]:RES:NAPPL:APPL1[:APPL2...][,NCOMM]
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mtf::paraver {

struct TaskShape {
  uint32_t threads = 1;
  uint32_t node = 1;  // 1-based node the task runs on
};

struct Application {
  std::vector<TaskShape> tasks;
};

// A thread of the trace as Paraver names it (all 1-based).
struct ThreadId {
  uint32_t appl = 1, task = 1, thread = 1;
};

struct Header {
  std::string date;                   // as written, e.g. "26/01/04 at 16:35"
  uint64_t endTime = 0;               // FTIME, in `unit`
  std::string unit;                   // "", "_ns", "_us", "_ms" or another "_x" (= microseconds,
                                      // as paraver-kernel reads it) as written ("" = microseconds)
  uint64_t resolution = 1'000'000;    // ticks per second of `unit`
  bool hasResources = false;          // RES was not "0"
  std::vector<uint32_t> cpusPerNode;  // empty if RES gave only the node count
  uint32_t nodes = 0;
  std::vector<Application> applications;
  char applicationSeparator = ':';  // between applications: ':' or ',' as in the input
  uint32_t communicatorCount = 0;
  std::vector<std::string> communicatorLines;  // "c:..." lines, verbatim

  // Locations are numbered 0.. over (appl, task, thread) in header order.
  uint64_t threadCount() const;
  // The location of a 1-based (appl, task, thread), or kUndefinedId if out of range.
  uint64_t locationOf(uint32_t appl, uint32_t task, uint32_t thread) const;
  ThreadId threadOf(uint64_t location) const;
  // 0-based position of a task over all applications (the MPI world rank we give it).
  uint64_t globalTaskOf(uint32_t appl, uint32_t task) const;
  uint64_t taskCount() const;
  // Precomputes the index tables; call after filling `applications`.
  void index();

  std::vector<uint64_t> taskBase_;    // per appl: first global task
  std::vector<uint64_t> threadBase_;  // per global task: first location
  std::vector<ThreadId> threads_;     // per location
};

// Parses the header line; throws InputError(path, "line 1", ...) if malformed.
Header parseHeader(std::string_view line, const std::string& path);
// Formats a header line (without the communicator lines).
std::string formatHeader(const Header& header);

// A communicator line after the header: paraver-kernel takes lines starting 'c' or 'C'
// (communicators) and 'i' or 'I' (intercommunicators); mtf models the 'c'/'C' ones.
inline bool isCommunicatorLine(std::string_view line) {
  return line.size() > 1 && line[1] == ':' &&
         (line[0] == 'c' || line[0] == 'C' || line[0] == 'i' || line[0] == 'I');
}

}  // namespace mtf::paraver
