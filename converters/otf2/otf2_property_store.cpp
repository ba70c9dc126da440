#include "converters/otf2/otf2_property_store.hpp"

#include <algorithm>
#include <charconv>

#include "converters/otf2/otf2_common.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {

namespace {

// The OTF2 property name of a model key: other namespaces' own names, mtf's encoded.
std::string otf2NameOf(const std::string& key) {
  if (key.starts_with(kForeignPropertyPrefix)) return key.substr(kForeignPropertyPrefix.size());
  return std::string(kPropertyNamespace) + encodePropertyKey(key);
}

// Foreign properties first (other tools look for them in the anchor), then mtf's own.
std::vector<const std::pair<const std::string, std::string>*> placementOrder(
    const TraceInfo& info) {
  std::vector<const std::pair<const std::string, std::string>*> order;
  for (const auto& entry : info.properties)
    if (entry.first.starts_with(kForeignPropertyPrefix)) order.push_back(&entry);
  for (const auto& entry : info.properties)
    if (!entry.first.starts_with(kForeignPropertyPrefix)) order.push_back(&entry);
  return order;
}

// Where to cut `value` at or before `end`: never inside a UTF-8 sequence, so that each
// piece otf2-print shows is readable text (unless no lead byte is found at all).
size_t pieceEnd(std::string_view value, size_t begin, size_t end) {
  if (end >= value.size()) return value.size();
  size_t cut = end;
  while (cut > begin && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  return cut > begin ? cut : end;
}

void addStoredProperty(PropertyPlan& plan, uint64_t& nextId, const std::string& key,
                       std::string_view value) {
  std::vector<std::string> pieces;
  for (size_t begin = 0; begin < value.size();) {
    const size_t end = pieceEnd(value, begin, begin + kPropertyPieceBytes);
    pieces.emplace_back(value.substr(begin, end - begin));
    begin = end;
  }
  const std::string descriptor = encodePropertyKey(key) + " " + std::to_string(pieces.size()) +
                                 " " + std::to_string(value.size());
  plan.strings.push_back({DefKind::String, {nextId++}, descriptor});
  for (std::string& piece : pieces)
    plan.strings.push_back({DefKind::String, {nextId++}, std::move(piece)});
}

}  // namespace

uint64_t nextFreeString(const std::vector<DefRecord>& records) {
  uint64_t next = 0;
  for (const DefRecord& r : records)
    if (r.kind == DefKind::String && r.fields[0] != kUndefinedRef)
      next = std::max(next, r.fields[0] + 1);
  return next;
}

PropertyPlan planProperties(const TraceInfo& info, uint64_t firstFreeString) {
  PropertyPlan plan;
  // The pointer to the stored properties needs at most this much of the budget.
  constexpr uint64_t kPointerBytes = kStoredPropertiesName.size() + 48;
  const uint64_t budget = kAnchorPropertyBudget - kPointerBytes;
  uint64_t used = info.creator.size() + 1;
  uint64_t nextId = firstFreeString;
  for (const auto* entry : placementOrder(info)) {
    const auto& [key, value] = *entry;
    const std::string name = otf2NameOf(key);
    const uint64_t cost = name.size() + value.size() + 2;
    if (!value.empty() && used + cost <= budget) {
      plan.anchor.emplace_back(name, value);
      used += cost;
    } else {
      addStoredProperty(plan, nextId, key, value);
    }
  }
  if (!plan.strings.empty())
    plan.anchor.emplace_back(
        std::string(kStoredPropertiesName),
        std::to_string(firstFreeString) + " " + std::to_string(plan.strings.size()));
  return plan;
}

namespace {

bool parseNumber(std::string_view& text, uint64_t& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return false;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return true;
}

// Reads the stored properties from the strings [first, first + count).
class StoredReader {
 public:
  StoredReader(Definitions& defs, const std::string& anchor, uint64_t first, uint64_t count)
      : defs_(defs), anchor_(anchor), next_(first), end_(first + count) {}

  void readAll() {
    while (next_ < end_) readOne();
  }

 private:
  [[noreturn]] void fail(uint64_t id, const std::string& what) const {
    throw InputError(anchor_, "global definitions, string " + std::to_string(id),
                     "stored property " + what);
  }

  std::string_view take() {
    const DefRecord* record = defs_.find(DefKind::String, next_);
    if (!record) fail(next_, "missing");
    ++next_;
    return record->text;
  }

  void readOne() {
    const uint64_t id = next_;
    std::string_view descriptor = take();
    const std::string_view encodedKey = descriptor.substr(0, descriptor.find(' '));
    descriptor.remove_prefix(std::min(descriptor.size(), encodedKey.size() + 1));
    std::string key;
    uint64_t pieces = 0, bytes = 0;
    if (!decodePropertyKey(encodedKey, key) || !parseNumber(descriptor, pieces) ||
        !parseNumber(descriptor, bytes) || !descriptor.empty() || pieces > end_ - next_)
      fail(id, "descriptor is malformed");
    std::string value;
    for (uint64_t i = 0; i < pieces; ++i) value += take();
    if (value.size() != bytes)
      fail(id, "'" + key + "' holds " + std::to_string(value.size()) + " bytes, its descriptor " +
                   std::to_string(bytes));
    defs_.info.properties[key] = std::move(value);
  }

  Definitions& defs_;
  const std::string& anchor_;
  uint64_t next_;
  uint64_t end_;
};

}  // namespace

void restoreStoredProperties(Definitions& defs, std::string_view pointer,
                             const std::string& anchor) {
  uint64_t first = 0, count = 0;
  std::string_view text = pointer;
  if (!parseNumber(text, first) || !parseNumber(text, count) || !text.empty() ||
      first > UINT64_MAX - count)
    throw InputError(anchor, "property " + std::string(kStoredPropertiesName),
                     "malformed value '" + std::string(pointer) + "'");
  StoredReader(defs, anchor, first, count).readAll();
  Definitions kept;
  kept.clock = defs.clock;
  kept.info = std::move(defs.info);
  for (const DefRecord& r : defs.records()) {
    const bool stored =
        r.kind == DefKind::String && r.fields[0] >= first && r.fields[0] - first < count;
    if (!stored) kept.add(r);
  }
  defs = std::move(kept);
}

}  // namespace mtf::otf2
