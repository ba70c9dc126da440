#include "filter/id_list.hpp"

#include <algorithm>
#include <charconv>

#include "util/error.hpp"

namespace mtf::filter {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool parseNumber(std::string_view s, uint64_t& n) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return ec == std::errc() && end == s.data() + s.size();
}

// "3-7" as a range; false if `item` is not two numbers joined by one '-'.
bool parseRange(std::string_view item, uint64_t& first, uint64_t& last) {
  const size_t dash = item.find('-');
  if (dash == std::string_view::npos) return parseNumber(item, first) && ((last = first), true);
  return parseNumber(trimmed(item.substr(0, dash)), first) &&
         parseNumber(trimmed(item.substr(dash + 1)), last);
}

std::vector<std::string_view> splitAtCommas(std::string_view text) {
  std::vector<std::string_view> items;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    items.push_back(trimmed(text.substr(start, comma - start)));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

// The length of the class starting at pattern[i] == '[' (through its ']'), or 0 if unclosed.
size_t classLength(std::string_view pattern, size_t i) {
  size_t j = i + 1;
  if (j < pattern.size() && pattern[j] == '!') ++j;
  if (j < pattern.size() && pattern[j] == ']') ++j;  // a leading ']' is a member
  while (j < pattern.size() && pattern[j] != ']') ++j;
  return j < pattern.size() ? j - i + 1 : 0;
}

bool classMatches(std::string_view cls, char c) {
  size_t j = 1;
  const bool negated = cls[j] == '!';
  if (negated) ++j;
  bool found = false;
  for (const size_t end = cls.size() - 1; j < end; ++j) {
    if (j + 2 < end && cls[j + 1] == '-') {
      found = found || (c >= cls[j] && c <= cls[j + 2]);
      j += 2;
    } else {
      found = found || c == cls[j];
    }
  }
  return found != negated;
}

}  // namespace

bool IdList::containsNumber(uint64_t n) const {
  return std::any_of(ranges.begin(), ranges.end(),
                     [n](const auto& r) { return n >= r.first && n <= r.second; });
}

bool IdList::containsName(std::string_view name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

IdList parseIdList(std::string_view text, std::string_view option) {
  IdList list;
  for (std::string_view item : splitAtCommas(text)) {
    if (item.empty())
      throw UsageError(std::string(option) + " '" + std::string(text) + "': an empty item");
    uint64_t first = 0, last = 0;
    if (!parseRange(item, first, last)) {
      list.names.emplace_back(item);
      continue;
    }
    if (last < first)
      throw UsageError(std::string(option) + ": '" + std::string(item) + "' ends before it starts");
    list.ranges.emplace_back(first, last);
  }
  return list;
}

// Iterative matching with one backtrack point for the last '*' (linear in practice).
bool globMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      starP = p++, starT = t;
      continue;
    }
    if (p < pattern.size()) {
      const size_t cls = pattern[p] == '[' ? classLength(pattern, p) : 0;
      if (cls ? classMatches(pattern.substr(p, cls), text[t])
              : (pattern[p] == '?' || pattern[p] == text[t])) {
        p += cls ? cls : 1, ++t;
        continue;
      }
    }
    if (starP == std::string_view::npos) return false;
    p = starP + 1, t = ++starT;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> splitPatterns(const std::vector<std::string>& values,
                                       std::string_view option) {
  std::vector<std::string> patterns;
  for (const std::string& value : values) {
    for (std::string_view item : splitAtCommas(value)) {
      if (item.empty())
        throw UsageError(std::string(option) + " '" + value + "': an empty pattern");
      for (size_t i = 0; i < item.size(); ++i)
        if (item[i] == '[' && classLength(item, i) == 0)
          throw UsageError(std::string(option) + " '" + std::string(item) + "': '[' not closed");
      patterns.emplace_back(item);
    }
  }
  return patterns;
}

bool matchesAny(const std::vector<std::string>& patterns, std::string_view text) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return globMatch(p, text); });
}

}  // namespace mtf::filter
