#include "converters/mtf/binary/definition_texts.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "converters/mtf/binary/definitions_codec.hpp"
#include "converters/mtf/binary/well_known_strings.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;
using compaction::CodingError;
using compaction::putString;
using compaction::putVarint;
using compaction::unzigzag;
using compaction::zigzag;

namespace {

constexpr uint64_t kLiteral = 0, kDerived = 1, kWellKnown = 2, kNumbered = 3;  // 3: version 5

// The fixed fields of `kind` that name a String definition.
const std::vector<size_t>& stringFields(DefKind kind) {
  static const std::vector<std::vector<size_t>> all = [] {
    std::vector<std::vector<size_t>> table(kDefKindCount);
    for (size_t k = 0; k < kDefKindCount; ++k) {
      const KindSchema& s = schemaOf(static_cast<DefKind>(k));
      const size_t fixed = s.hasGroup() ? s.fixedCount : s.fields.size();
      for (size_t f = 0; f < fixed; ++f)
        if (s.fields[f].type == FieldType::Ref && s.fields[f].refKind == "string")
          table[k].push_back(f);
    }
    return table;
  }();
  return all[static_cast<size_t>(kind)];
}

// Record position of each String definition by its self (the first one with that self).
std::unordered_map<uint64_t, size_t> stringsBySelf(const std::vector<DefRecord>& records) {
  std::unordered_map<uint64_t, size_t> bySelf;
  for (size_t i = 0; i < records.size(); ++i)
    if (records[i].kind == DefKind::String && !records[i].fields.empty())
      bySelf.emplace(records[i].fields[0], i);
  return bySelf;
}

struct Owner {
  size_t record = 0, field = 0;
};

// The first (record, string field) naming each String record, by the String's position.
std::unordered_map<size_t, Owner> ownersOf(const std::vector<DefRecord>& records,
                                           const std::unordered_map<uint64_t, size_t>& bySelf) {
  std::unordered_map<size_t, Owner> owners;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].kind == DefKind::String) continue;
    for (size_t f : stringFields(records[i].kind)) {
      if (f >= records[i].fields.size()) continue;
      const auto s = bySelf.find(records[i].fields[f]);
      if (s != bySelf.end()) owners.emplace(s->second, Owner{i, f});
    }
  }
  return owners;
}

// A text cut at its decimal numbers (runs of 1 to 18 digits without a leading zero):
// parts.size() == numbers.size() + 1.
struct Template {
  std::vector<std::string_view> parts;
  std::vector<uint64_t> numbers;
};

Template splitNumbers(std::string_view s) {
  Template t;
  size_t partStart = 0;
  for (size_t i = 0; i < s.size();) {
    if (s[i] < '0' || s[i] > '9') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
    const size_t length = end - i;
    if (length <= 18 && (length == 1 || s[i] != '0')) {
      t.parts.push_back(s.substr(partStart, i - partStart));
      t.numbers.push_back(std::stoull(std::string(s.substr(i, length))));
      partStart = end;
    }
    i = end;
  }
  t.parts.push_back(s.substr(partStart));
  return t;
}

// Each number is predicted as the number at the same place of the previous template of
// the column plus one (0 where that one has none).
uint64_t predicted(const std::vector<uint64_t>& previous, size_t j) {
  return j < previous.size() ? previous[j] + 1 : 0;
}

void putTemplate(std::vector<uint8_t>& out, std::string_view s, std::vector<uint64_t>& previous) {
  const Template t = splitNumbers(s);
  putVarint(out, t.numbers.size());
  for (std::string_view part : t.parts) putString(out, part);
  for (size_t j = 0; j < t.numbers.size(); ++j)
    putVarint(out, zigzag(static_cast<int64_t>(t.numbers[j] - predicted(previous, j))));
  previous = t.numbers;
}

std::string readTemplate(ByteReader& r, std::vector<uint64_t>& previous) {
  const uint64_t count = r.count(r.remaining(), "number count");
  std::vector<std::string> parts(count + 1);
  for (std::string& part : parts) part = readString(r);
  std::vector<uint64_t> numbers(count);
  std::string text = parts[0];
  for (size_t j = 0; j < count; ++j) {
    numbers[j] = predicted(previous, j) + static_cast<uint64_t>(unzigzag(r.varint()));
    text += std::to_string(numbers[j]);
    text += parts[j + 1];
  }
  previous = std::move(numbers);
  return text;
}

// A numbered text (version 5): the previous text of its column with other numbers at the
// places its template has them; each stored as the difference to the number it replaces.
bool putNumbered(std::vector<uint8_t>& out, std::string_view text, std::string_view previous) {
  const Template now = splitNumbers(text), before = splitNumbers(previous);
  if (now.parts != before.parts) return false;
  for (size_t j = 0; j < now.numbers.size(); ++j)
    putVarint(out, zigzag(static_cast<int64_t>(now.numbers[j] - before.numbers[j])));
  return true;
}

std::string readNumbered(ByteReader& r, std::string_view previous) {
  const Template before = splitNumbers(previous);
  std::string text(before.parts[0]);
  for (size_t j = 0; j < before.numbers.size(); ++j) {
    text += std::to_string(before.numbers[j] + static_cast<uint64_t>(unzigzag(r.varint())));
    text += before.parts[j + 1];
  }
  return text;
}

// Column keys: owned strings by (owner kind, field), then unowned strings, then the
// other records.
uint64_t columnOf(const std::vector<DefRecord>& records,
                  const std::unordered_map<size_t, Owner>& owners, size_t i) {
  constexpr uint64_t kUnowned = uint64_t{1} << 40, kOther = kUnowned + 1;
  if (records[i].kind != DefKind::String) return kOther;
  const auto o = owners.find(i);
  if (o == owners.end()) return kUnowned;
  return static_cast<uint64_t>(records[o->second.record].kind) << 20 | o->second.field;
}

}  // namespace

std::vector<size_t> textOrder(const std::vector<DefRecord>& records) {
  const auto owners = ownersOf(records, stringsBySelf(records));
  std::vector<uint64_t> column(records.size());
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    column[i] = columnOf(records, owners, i);
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return column[a] < column[b]; });
  return order;
}

namespace {

// What the texts of one definitions section share while they are coded or decoded.
struct TextColumns {
  explicit TextColumns(const std::vector<DefRecord>& records)
      : order(textOrder(records)),
        bySelf(stringsBySelf(records)),
        owners(ownersOf(records, bySelf)),
        done(records.size(), false) {}

  // The record a derived text refers to through field `field` of its owner, if that
  // field names a String already coded; else records.size().
  size_t source(const std::vector<DefRecord>& records, size_t text, uint64_t field) const {
    const auto o = owners.find(text);
    if (o == owners.end()) return records.size();
    const DefRecord& owner = records[o->second.record];
    const std::vector<size_t>& fields = stringFields(owner.kind);
    if (field >= owner.fields.size() ||
        std::find(fields.begin(), fields.end(), field) == fields.end())
      return records.size();
    const auto s = bySelf.find(owner.fields[field]);
    if (s == bySelf.end() || s->second == text || !done[s->second]) return records.size();
    return s->second;
  }

  std::vector<size_t> order;
  std::unordered_map<uint64_t, size_t> bySelf;
  std::unordered_map<size_t, Owner> owners;
  std::vector<bool> done;
};

struct Derivation {
  uint64_t field = 0;
  size_t source = 0, at = 0;  // the source record, where its text sits in the text
};

// The longest text among the owner's other strings that the text contains.
bool findDerivation(const std::vector<DefRecord>& records, const TextColumns& c, size_t i,
                    Derivation& d) {
  const auto o = c.owners.find(i);
  if (o == c.owners.end()) return false;
  bool found = false;
  for (size_t f : stringFields(records[o->second.record].kind)) {
    const size_t s = c.source(records, i, f);
    if (s == records.size()) continue;
    const std::string& piece = records[s].text;
    if (piece.empty() || (found && piece.size() <= records[d.source].text.size())) continue;
    const size_t at = records[i].text.find(piece);
    if (at == std::string::npos) continue;
    d = {f, s, at};
    found = true;
  }
  return found;
}

// Properties as pieces: literal text, then a reference to a text (its position in the
// text order) that follows it in the property; references shorter than this are not sought.
constexpr size_t kMinPiece = 6;
constexpr size_t kMaxCandidates = 64;

class PieceFinder {
 public:
  explicit PieceFinder(std::vector<std::string_view> texts) : texts_(std::move(texts)) {
    for (size_t n = 0; n < texts_.size(); ++n)
      if (texts_[n].size() >= kMinPiece) starts_[texts_[n].substr(0, kMinPiece)].push_back(n);
  }
  // The longest text found at `at` in `value` (the expected one first), or npos.
  size_t find(std::string_view value, size_t at, size_t expected) const {
    if (value.size() - at < kMinPiece) return std::string_view::npos;
    const auto c = starts_.find(value.substr(at, kMinPiece));
    if (c == starts_.end()) return std::string_view::npos;
    size_t best = std::string_view::npos;
    if (expected < texts_.size() && value.substr(at).starts_with(texts_[expected]) &&
        texts_[expected].size() >= kMinPiece)
      best = expected;
    for (size_t k = 0; k < c->second.size() && k < kMaxCandidates; ++k) {
      const size_t n = c->second[k];
      if (value.substr(at).starts_with(texts_[n]) &&
          (best == std::string_view::npos || texts_[n].size() > texts_[best].size()))
        best = n;
    }
    return best;
  }
  size_t size(size_t n) const { return texts_[n].size(); }

 private:
  std::vector<std::string_view> texts_;
  std::unordered_map<std::string_view, std::vector<size_t>> starts_;
};

void putProperty(std::vector<uint8_t>& out, std::string_view value, const PieceFinder& finder) {
  std::vector<std::pair<std::string_view, size_t>> pieces;
  size_t literalStart = 0, previous = static_cast<size_t>(-1);
  for (size_t at = 0; at < value.size();) {
    const size_t n = finder.find(value, at, previous + 1);
    if (n == std::string_view::npos) {
      ++at;
      continue;
    }
    pieces.emplace_back(value.substr(literalStart, at - literalStart), n);
    previous = n;
    at += finder.size(n);
    literalStart = at;
  }
  putVarint(out, pieces.size());
  previous = static_cast<size_t>(-1);
  for (const auto& [literal, n] : pieces) {
    putString(out, literal);
    putVarint(out, zigzag(static_cast<int64_t>(n - previous - 1)));
    previous = n;
  }
  putString(out, value.substr(literalStart));
}

}  // namespace

void putTextsV4(std::vector<uint8_t>& out, const std::vector<DefRecord>& records,
                const std::map<std::string, std::string>& properties) {
  TextColumns c(records);
  std::vector<uint8_t> tags, fields, known, affixes, literals;
  std::vector<uint64_t> previousPrefix, previousSuffix;
  uint64_t previousKnown = UINT64_MAX;  // -1
  uint64_t column = UINT64_MAX;
  const std::string* previousText = nullptr;  // of the column
  for (size_t i : c.order) {
    const std::string& text = records[i].text;
    if (const uint64_t now = columnOf(records, c.owners, i); now != column) {
      column = now;
      previousPrefix.clear();
      previousSuffix.clear();
      previousText = nullptr;
    }
    Derivation d;
    if (const auto k = wellKnownIndex(text)) {
      putVarint(tags, kWellKnown);
      putVarint(known, zigzag(static_cast<int64_t>(*k - previousKnown - 1)));
      previousKnown = *k;
    } else if (previousText && putNumbered(literals, text, *previousText)) {
      putVarint(tags, kNumbered);
    } else if (findDerivation(records, c, i, d)) {
      putVarint(tags, kDerived);
      putVarint(fields, d.field);
      putTemplate(affixes, std::string_view(text).substr(0, d.at), previousPrefix);
      putTemplate(affixes, std::string_view(text).substr(d.at + records[d.source].text.size()),
                  previousSuffix);
    } else {
      putVarint(tags, kLiteral);
      putString(literals, text);
    }
    c.done[i] = true;
    previousText = &text;
  }
  for (const auto* stream : {&tags, &fields, &known, &affixes, &literals})
    out.insert(out.end(), stream->begin(), stream->end());
  std::vector<std::string_view> ordered;
  for (size_t i : c.order) ordered.push_back(records[i].text);
  for (std::string_view known : wellKnownStrings()) ordered.push_back(known);  // n >= N
  const PieceFinder finder(std::move(ordered));
  putVarint(out, properties.size());
  for (const auto& [key, value] : properties) {
    putString(out, key);
    putProperty(out, value, finder);
  }
}

namespace {

// The prefix and suffix of every derived text, in text order.
std::vector<std::pair<std::string, std::string>> readAffixes(ByteReader& r,
                                                             const std::vector<DefRecord>& records,
                                                             const TextColumns& c,
                                                             const std::vector<uint64_t>& tags) {
  std::vector<std::pair<std::string, std::string>> affixes;
  std::vector<uint64_t> previousPrefix, previousSuffix;
  uint64_t column = UINT64_MAX;
  for (size_t n = 0; n < c.order.size(); ++n) {
    if (const uint64_t now = columnOf(records, c.owners, c.order[n]); now != column) {
      column = now;
      previousPrefix.clear();
      previousSuffix.clear();
    }
    if (tags[n] != kDerived) continue;
    std::string prefix = readTemplate(r, previousPrefix);
    affixes.emplace_back(std::move(prefix), readTemplate(r, previousSuffix));
  }
  return affixes;
}

// Derived texts and property pieces are a few bytes each but may repeat a long text: a
// bound on what they expand to, before memory runs out (real definitions are megabytes).
constexpr size_t kMaxTextBytes = size_t{1} << 30;

// `total`: the bytes expanded so far, texts and properties.
std::string readProperty(ByteReader& r, const std::vector<DefRecord>& records,
                         const std::vector<size_t>& order, size_t& total,
                         std::span<const std::string_view> wellKnown) {
  std::string value;
  size_t previous = static_cast<size_t>(-1);
  for (uint64_t pieces = r.count(r.remaining(), "piece count"); pieces > 0; --pieces) {
    value += readString(r);
    const size_t at = r.position();
    const size_t n = previous + 1 + static_cast<size_t>(unzigzag(r.varint()));
    // Texts, then the well-known strings.
    const size_t known = n - order.size();
    if (n >= order.size() && known >= wellKnown.size())
      throw CodingError{at, "property piece refers to no text"};
    const std::string_view text =
        n < order.size() ? std::string_view(records[order[n]].text) : wellKnown[known];
    total += text.size();
    if (total > kMaxTextBytes) throw CodingError{at, "properties too large"};
    value += text;
    previous = n;
  }
  value += readString(r);
  return value;
}

}  // namespace

namespace {

// The well-known strings the texts of tag 2 name, in text order.
std::vector<std::string_view> readWellKnown(ByteReader& r, size_t count,
                                            std::span<const std::string_view> table) {
  std::vector<std::string_view> texts(count);
  uint64_t previous = UINT64_MAX;  // -1
  for (std::string_view& text : texts) {
    const size_t at = r.position();
    const uint64_t k = previous + 1 + static_cast<uint64_t>(unzigzag(r.varint()));
    if (k >= table.size()) throw CodingError{at, "no well-known string " + std::to_string(k)};
    text = table[k];
    previous = k;
  }
  return texts;
}

}  // namespace

namespace {

struct TextTags {
  std::vector<uint64_t> tags;
  size_t derived = 0, wellKnown = 0;
};

TextTags readTags(ByteReader& r, size_t count, uint32_t version) {
  TextTags t;
  t.tags.resize(count);
  const uint64_t last = version >= 5 ? kNumbered : kWellKnown;
  for (uint64_t& tag : t.tags) {
    const size_t at = r.position();
    tag = r.varint();
    if (tag > last) throw CodingError{at, "unknown text tag " + std::to_string(tag)};
    t.derived += tag == kDerived;
    t.wellKnown += tag == kWellKnown;
  }
  return t;
}

// The texts in text order: literal and numbered ones read on the way.
void assembleTexts(ByteReader& r, std::vector<DefRecord>& records, TextColumns& c,
                   const TextTags& t, const std::vector<std::pair<size_t, uint64_t>>& fields,
                   const std::vector<std::string_view>& known,
                   const std::vector<std::pair<std::string, std::string>>& affixes, size_t& total) {
  uint64_t column = UINT64_MAX;
  size_t previous = records.size();  // the previous text of the column
  for (size_t n = 0, k = 0, w = 0; n < c.order.size(); ++n) {
    const size_t i = c.order[n], at = r.position();
    if (const uint64_t now = columnOf(records, c.owners, i); now != column) {
      column = now;
      previous = records.size();
    }
    if (t.tags[n] == kLiteral) {
      records[i].text = readString(r);
    } else if (t.tags[n] == kWellKnown) {
      records[i].text = known[w++];
    } else if (t.tags[n] == kNumbered) {
      if (previous == records.size())
        throw CodingError{at, "numbered text without a text before it in its column"};
      records[i].text = readNumbered(r, records[previous].text);
      total += records[i].text.size();
    } else {
      const size_t s = c.source(records, i, fields[k].second);
      if (s == records.size())
        throw CodingError{fields[k].first, "derived text names no string coded before it"};
      total += affixes[k].first.size() + records[s].text.size() + affixes[k].second.size();
      if (total > kMaxTextBytes) throw CodingError{fields[k].first, "derived texts too large"};
      records[i].text = affixes[k].first + records[s].text + affixes[k].second;
      ++k;
    }
    if (total > kMaxTextBytes) throw CodingError{at, "texts too large"};
    c.done[i] = true;
    previous = i;
  }
}

}  // namespace

void readTextsV4(ByteReader& r, std::vector<DefRecord>& records,
                 std::map<std::string, std::string>& properties, uint32_t version) {
  TextColumns c(records);
  const TextTags t = readTags(r, records.size(), version);
  std::vector<std::pair<size_t, uint64_t>> fields(t.derived);  // position, field
  for (auto& [at, field] : fields) {
    at = r.position();
    field = r.varint();
  }
  const std::span<const std::string_view> table = wellKnownStrings(version);
  const std::vector<std::string_view> known = readWellKnown(r, t.wellKnown, table);
  const auto affixes = readAffixes(r, records, c, t.tags);
  size_t total = 0;  // bytes the references expand to
  assembleTexts(r, records, c, t, fields, known, affixes, total);
  for (uint64_t n = r.count(r.remaining(), "property count"); n > 0; --n) {
    std::string key = readString(r);
    properties[key] = readProperty(r, records, c.order, total, table);
  }
}

}  // namespace mtf::mtfbin
