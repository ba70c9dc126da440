#include "converters/paraver/pcf.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "converters/paraver/fields.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Splits off the first whitespace-separated word of `s`.
std::string_view firstWord(std::string_view& s) {
  s = trim(s);
  size_t n = 0;
  while (n < s.size() && s[n] != ' ' && s[n] != '\t') ++n;
  const std::string_view word = s.substr(0, n);
  s = trim(s.substr(n));
  return word;
}

bool parseSignedWord(std::string_view word, int64_t& value) {
  FieldCursor c(word);
  return word.find(':') == std::string_view::npos && c.nextSigned(value) && c.atEnd();
}

// Visits the lines of `text` with their 1-based numbers.
template <typename Fn>
void forEachLine(std::string_view text, Fn&& fn) {
  uint64_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    fn(text.substr(0, end), ++number);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

enum class Section { Other, States, EventTypes, Values };

Section sectionOf(std::string_view keyword, bool& isKeyword) {
  isKeyword = true;
  if (keyword == "STATES") return Section::States;
  if (keyword == "EVENT_TYPE") return Section::EventTypes;
  if (keyword == "VALUES") return Section::Values;
  static const std::string_view others[] = {"DEFAULT_OPTIONS", "DEFAULT_SEMANTIC", "STATES_COLOR",
                                            "GRADIENT_COLOR", "GRADIENT_NAMES"};
  for (std::string_view o : others)
    if (keyword == o) return Section::Other;
  isKeyword = false;
  return Section::Other;
}

}  // namespace

const std::string* Pcf::valueLabel(uint64_t type, int64_t value) const {
  const auto t = types.find(type);
  if (t == types.end()) return nullptr;
  const auto v = t->second.values.find(value);
  return v == t->second.values.end() ? nullptr : &v->second;
}

const std::string* Pcf::typeLabel(uint64_t type) const {
  const auto t = types.find(type);
  return t == types.end() ? nullptr : &t->second.label;
}

Pcf parsePcf(std::string_view text, const std::string& path) {
  Pcf pcf;
  Section section = Section::Other;
  std::vector<uint64_t> block;  // event types sharing the next VALUES list
  forEachLine(text, [&](std::string_view raw, uint64_t number) {
    const std::string_view line = trim(raw);
    if (line.empty()) return;
    bool isKeyword = false;
    const Section next = sectionOf(line, isKeyword);
    if (isKeyword) {
      if (next == Section::EventTypes) block.clear();
      section = next;
      return;
    }
    std::string_view rest = line;
    const std::string_view first = firstWord(rest);
    int64_t a = 0;
    if (section == Section::Other) return;
    if (!parseSignedWord(first, a))
      throw InputError(path, "line " + std::to_string(number), "expected a number");
    if (section == Section::States) {
      pcf.states[static_cast<uint64_t>(a)] = std::string(rest);
    } else if (section == Section::EventTypes) {
      int64_t type = 0;
      if (!parseSignedWord(firstWord(rest), type) || type < 0)
        throw InputError(path, "line " + std::to_string(number), "expected an event type");
      EventTypeInfo& info = pcf.types[static_cast<uint64_t>(type)];
      info.gradient = static_cast<uint32_t>(a);
      info.label = std::string(rest);
      block.push_back(static_cast<uint64_t>(type));
    } else {
      for (uint64_t type : block) pcf.types[type].values[a] = std::string(rest);
    }
  });
  return pcf;
}

Row parseRow(std::string_view text, const std::string& path) {
  Row row;
  std::vector<std::string>* level = nullptr;
  uint64_t remaining = 0;
  forEachLine(text, [&](std::string_view raw, uint64_t number) {
    const std::string_view line = trim(raw);
    if (remaining > 0) {
      level->emplace_back(line);
      --remaining;
      return;
    }
    if (line.empty()) return;
    std::string_view rest = line;
    if (firstWord(rest) != "LEVEL") return;  // tolerate stray lines, as Paraver does
    const std::string_view name = firstWord(rest);
    uint64_t size = 0;
    if (firstWord(rest) != "SIZE" || !parseUnsigned(firstWord(rest), size))
      throw InputError(path, "line " + std::to_string(number), "expected LEVEL name SIZE n");
    level = &row[std::string(name)];
    remaining = size;
  });
  return row;
}

bool readSmallFile(const std::string& path, std::string& text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw IoError(path, "cannot open");
  text.clear();
  char chunk[65536];
  size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) text.append(chunk, n);
  if (std::ferror(f.get())) throw IoError(path, "read failed");
  return true;
}

}  // namespace mtf::paraver
