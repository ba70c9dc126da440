// TAU .edf event definition files: parsing, the tracer's fixed events, display names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mtf::tau {

// What an event means, from the edf's group and param columns.
enum class EventClass : uint8_t {
  Region,      // EntryExit of a user/MPI/... group
  Trigger,     // TriggerValue: a user event / counter
  Send,        // MESSAGE_SEND (packed par)
  Recv,        // MESSAGE_RECV (packed par)
  Bookkeeping  // TRACER events (EV_INIT, FLUSH, WALL_CLOCK, ...) and anything else
};

// One line `id group tag "name" param`.
struct EdfEntry {
  int64_t id = 0;
  std::string group;
  int64_t tag = 0;
  std::string name;  // raw, between the first and the last double quote
  std::string param;
  std::string line;  // the line as written (without the newline)
  EventClass eventClass() const;
};

struct EdfTable {
  std::string text;       // the whole file, for a byte-exact rewrite
  uint64_t declared = 0;  // N of the first line
  std::vector<EdfEntry> entries;
  std::unordered_map<int64_t, size_t> byId;
  uint64_t redefinitions = 0;      // lines defining an id again (ignored, as TAU does)
  uint64_t firstRedefinition = 0;  // line number of the first

  const EdfEntry* find(int64_t id) const {
    const auto it = byId.find(id);
    return it == byId.end() ? nullptr : &entries[it->second];
  }
  std::optional<int64_t> idOfName(std::string_view name) const;
};

// Parses edf text; `path` names the file in errors. A declared count that differs from
// the lines listed is a warning on stderr (real TAU files declare one event too many).
EdfTable parseEdf(std::string text, const std::string& path, bool warn = true);
// Reads and parses a file (size checked before reading).
EdfTable readEdf(const std::filesystem::path& path, bool warn = true);
// Parses one definition line; nullopt if it is not one.
std::optional<EdfEntry> parseEdfLine(std::string_view line);
std::string formatEdfLine(int64_t id, std::string_view group, int64_t tag, std::string_view name,
                          std::string_view param);
inline constexpr std::string_view kEdfComment = "# FunctionId Group Tag \"Name Type\" Parameters";

// The tracer's own events, with their ids in per-thread files.
struct TracerEvent {
  int64_t id;
  std::string_view name;
  std::string_view group;
  int64_t tag;
  std::string_view param;
};
inline constexpr int64_t kEvInit = 60000, kFlush = 60001, kFlushClose = 60003, kFlushInitm = 60004,
                         kWallClock = 60005, kContEvent = 60006, kMessageSend = 60007,
                         kMessageRecv = 60008;
const std::vector<TracerEvent>& tracerEvents();
// The per-thread id of a tracer event called `name` (merged files renumber them).
std::optional<int64_t> canonicalTracerId(std::string_view name);
const TracerEvent* tracerEventById(int64_t canonicalId);

// TAU names are "name type " (e.g. "cl_int clFinish(cl_command_queue) C "): the display
// name drops trailing spaces and a trailing language tag after the signature. Choice:
// only the tags TAU's instrumentor appends (C, C++, F, F90) are dropped, and only after
// a ')', so a name that merely ends in a capital letter is kept.
std::string displayName(std::string_view rawName);

}  // namespace mtf::tau
