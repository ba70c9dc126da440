#include "converters/tau/tau_edf.hpp"

#include <charconv>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {
namespace {

// The edf of a huge application holds a few MB at most; anything past this is not an edf.
constexpr uint64_t kMaxEdfBytes = 256ull << 20;

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}
std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Splits off the next whitespace-separated word of `s`.
std::string_view nextWord(std::string_view& s) {
  s = trimLeft(s);
  size_t end = 0;
  while (end < s.size() && s[end] != ' ' && s[end] != '\t') ++end;
  const std::string_view word = s.substr(0, end);
  s.remove_prefix(end);
  return word;
}

bool parseInteger(std::string_view word, int64_t& value) {
  if (word.empty()) return false;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  return ec == std::errc() && ptr == word.data() + word.size();
}

}  // namespace

EventClass EdfEntry::eventClass() const {
  if (group == "TAU_MESSAGE" && name == "MESSAGE_SEND") return EventClass::Send;
  if (group == "TAU_MESSAGE" && name == "MESSAGE_RECV") return EventClass::Recv;
  if (group == "TRACER") return EventClass::Bookkeeping;
  if (param == "EntryExit") return EventClass::Region;
  if (param == "TriggerValue") return EventClass::Trigger;
  return EventClass::Bookkeeping;
}

std::optional<int64_t> EdfTable::idOfName(std::string_view name) const {
  for (const EdfEntry& e : entries)
    if (e.name == name) return e.id;
  return std::nullopt;
}

std::optional<EdfEntry> parseEdfLine(std::string_view line) {
  EdfEntry e;
  e.line = std::string(line);
  std::string_view rest = trimRight(line);
  if (!parseInteger(nextWord(rest), e.id)) return std::nullopt;
  e.group = std::string(nextWord(rest));
  if (!parseInteger(nextWord(rest), e.tag) || e.group.empty()) return std::nullopt;
  // The name runs from the first to the last double quote: names hold spaces and quotes.
  const size_t open = rest.find('"');
  const size_t close = rest.rfind('"');
  if (open == std::string_view::npos || close == open) return std::nullopt;
  if (!trimLeft(rest.substr(0, open)).empty()) return std::nullopt;
  e.name = std::string(rest.substr(open + 1, close - open - 1));
  e.param = std::string(trimLeft(trimRight(rest.substr(close + 1))));
  return e;
}

std::string formatEdfLine(int64_t id, std::string_view group, int64_t tag, std::string_view name,
                          std::string_view param) {
  std::string line = std::to_string(id) + " " + std::string(group) + " " + std::to_string(tag) +
                     " \"" + std::string(name) + "\" " + std::string(param);
  return line;
}

EdfTable parseEdf(std::string text, const std::string& path, bool warn) {
  EdfTable table;
  table.text = std::move(text);
  std::string_view all = table.text;
  const uint64_t totalBytes = all.size();
  uint64_t lineNumber = 0;
  bool header = false;
  while (!all.empty()) {
    const size_t end = all.find('\n');
    const std::string_view line = all.substr(0, end);
    all.remove_prefix(end == std::string_view::npos ? all.size() : end + 1);
    ++lineNumber;
    const std::string_view body = trimLeft(trimRight(line));
    if (body.empty() || body.front() == '#') continue;
    if (!header) {
      std::string_view rest = body;
      int64_t declared = 0;
      if (!parseInteger(nextWord(rest), declared) || declared < 0 ||
          trimLeft(rest) != "dynamic_trace_events")
        throw InputError(path, placeLine(lineNumber),
                         "not an edf: expected 'N dynamic_trace_events'");
      // A count the file cannot possibly list (each line takes more than one byte) means a
      // damaged file, not the usual off-by-one of real traces (which stays a warning).
      if (static_cast<uint64_t>(declared) > totalBytes)
        throw InputError(path, placeLine(lineNumber),
                         "declares " + std::to_string(declared) + " events, more than its " +
                             std::to_string(totalBytes) + " bytes can list");
      table.declared = static_cast<uint64_t>(declared);
      header = true;
      continue;
    }
    std::optional<EdfEntry> entry = parseEdfLine(line);
    if (!entry)
      throw InputError(path, placeLine(lineNumber),
                       "malformed event definition: " + std::string(body));
    // TAU's reader keeps the first definition of an id and ignores the others.
    if (!table.byId.emplace(entry->id, table.entries.size()).second) {
      if (table.redefinitions++ == 0) table.firstRedefinition = lineNumber;
      continue;
    }
    table.entries.push_back(std::move(*entry));
  }
  if (!header) throw InputError(path, "", "not an edf: no 'N dynamic_trace_events' line");
  // TAU's own tracer declares one event more than it lists in every .edf it writes: that
  // is normal, not worth a warning on each file; any other difference is.
  const bool usual =
      table.declared == table.entries.size() || table.declared == table.entries.size() + 1;
  if (warn && table.redefinitions)
    mtf::warn(path + ": " + std::to_string(table.redefinitions) +
              " event ids defined again (first at line " + std::to_string(table.firstRedefinition) +
              "); their first definitions are used, as TAU's reader does");
  if (warn && !usual)
    mtf::warn(path + ": declares " + std::to_string(table.declared) + " events, lists " +
              std::to_string(table.entries.size()));
  return table;
}

EdfTable readEdf(const fs::path& path, bool warn) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path.string(), "", "event definitions missing: " + ec.message());
  if (size > kMaxEdfBytes) throw InputError(path.string(), "", "too large for an edf");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "cannot open event definitions");
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size) throw IoError(path.string(), "short read");
  return parseEdf(std::move(text), path.string(), warn);
}

const std::vector<TracerEvent>& tracerEvents() {
  static const std::vector<TracerEvent> all = {
      {kEvInit, "EV_INIT", "TRACER", 0, "none"},
      {kFlush, "FLUSH", "TRACER", 0, "EntryExit"},
      {kFlushClose, "FLUSH_CLOSE", "TRACER", 0, "none"},
      {kFlushInitm, "FLUSH_INITM", "TRACER", 0, "none"},
      {kWallClock, "WALL_CLOCK", "TRACER", 0, "none"},
      {kContEvent, "CONT_EVENT", "TRACER", 0, "none"},
      {kMessageSend, "MESSAGE_SEND", "TAU_MESSAGE", -7, "par"},
      {kMessageRecv, "MESSAGE_RECV", "TAU_MESSAGE", -8, "par"},
  };
  return all;
}

std::optional<int64_t> canonicalTracerId(std::string_view name) {
  for (const TracerEvent& t : tracerEvents())
    if (t.name == name) return t.id;
  return std::nullopt;
}

const TracerEvent* tracerEventById(int64_t canonicalId) {
  for (const TracerEvent& t : tracerEvents())
    if (t.id == canonicalId) return &t;
  return nullptr;
}

std::string displayName(std::string_view raw) {
  std::string_view name = trimRight(raw);
  for (std::string_view tag : {" C", " C++", " F", " F90"}) {
    if (name.size() > tag.size() + 1 && name.ends_with(tag) &&
        name[name.size() - tag.size() - 1] == ')') {
      name.remove_suffix(tag.size());
      break;
    }
  }
  return std::string(trimRight(name));
}

}  // namespace mtf::tau
