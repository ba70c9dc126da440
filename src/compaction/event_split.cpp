#include "compaction/event_split.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "util/error.hpp"
#include "values/byte_coding.hpp"

namespace mtf::compaction {

namespace {

struct LayoutTable {
  std::array<KindLayout, kEventKindCount> layouts;
  LayoutTable() {
    for (size_t k = 0; k < kEventKindCount; ++k) {
      const auto kind = static_cast<EventKind>(k);
      const KindSchema& schema = schemaOf(kind);
      KindLayout& layout = layouts[k];
      for (size_t i = 0; i < schema.fields.size(); ++i)
        layout.structural.push_back(isStructuralField(kind, i));
      layout.commField = schema.indexOf("comm");
      layout.fixedCount = schema.fixedCount;
      // Field positions are kept as bytes below (event_kinds.def has at most a few).
      if (schema.fixedCount > 255) throw std::logic_error("event kind with over 255 fields");
      layout.groupSize = schema.hasGroup() ? schema.groupSize : 0;
      for (size_t i = 0; i < schema.fields.size(); ++i) {
        const bool rank = schema.fields[i].type == FieldType::Rank && layout.commField >= 0;
        layout.action.push_back(!layout.structural[i] ? KindLayout::kValue
                                : rank                ? KindLayout::kRank
                                                      : KindLayout::kStructural);
        (i < layout.fixedCount ? layout.fixedStructural : layout.groupStructural) +=
            layout.structural[i];
        if (i >= layout.fixedCount) continue;
        if (!layout.structural[i]) {
          layout.fixedValueFields.push_back(static_cast<uint8_t>(i));
          continue;
        }
        const auto slot = static_cast<uint8_t>(layout.fixedStructural - 1);  // counted above
        (rank ? layout.fixedRankFields : layout.fixedPlainFields)
            .push_back({static_cast<uint8_t>(i), slot});
      }
    }
  }
};

[[noreturn]] void unknownKind(EventKind kind) {
  throw InputError("", "", "event of unknown kind " + std::to_string(static_cast<int>(kind)));
}

const KindSchema& checkedSchema(EventKind kind) {
  if (static_cast<size_t>(kind) >= kEventKindCount) unknownKind(kind);
  return schemaOf(kind);
}

// Schema field index of event field `i` (repeated groups map onto their group fields).
inline size_t schemaIndex(const KindSchema& s, size_t i) {
  return i < s.fixedCount ? i : s.fixedCount + (i - s.fixedCount) % s.groupSize;
}

// Built at start-up (schemaOf builds its own tables on first use): the per-event path
// then reads it without a guard.
const LayoutTable kLayouts;

const LayoutTable& layoutTable() {
  return kLayouts;
}

}  // namespace

const KindLayout& layoutOf(EventKind kind) {
  return layoutTable().layouts.at(static_cast<size_t>(kind));
}

int64_t OwnRanks::lookUp(Ref comm, LocationId location) {
  if (!last_ || lastLocation_ != location) {
    last_ = &cache_[location];
    lastLocation_ = location;
  }
  lastComm_ = comm;
  for (const auto& [c, rank] : *last_)
    if (c == comm) return lastRank_ = rank;
  lastRank_ = ranks_.rankIn(comm, location);
  last_->emplace_back(comm, lastRank_);
  return lastRank_;
}

namespace {

[[noreturn]] void badFieldCount(const Event& e, size_t expected) {
  throw InputError("", placeLocation(e.location),
                   std::string(nameOf(e.kind)) + " event with " + std::to_string(e.fields.size()) +
                       " fields, its kind has " + std::to_string(expected));
}

// The number of fields an event of this kind must have, given its fields.
inline size_t expectedFieldCount(const KindLayout& layout, const FieldList& fields) {
  if (fields.size() < layout.fixedCount) return layout.fixedCount;
  if (layout.groupSize == 0) return layout.action.size();  // every schema field
  return layout.fixedCount + static_cast<size_t>(fields[layout.fixedCount - 1]) * layout.groupSize;
}

// The layout of `e`'s kind, once its kind and field count are known good (else throws).
inline const KindLayout& checkedLayout(const Event& e) {
  if (static_cast<size_t>(e.kind) >= kEventKindCount) [[unlikely]]
    unknownKind(e.kind);
  const KindLayout& layout = layoutTable().layouts[static_cast<size_t>(e.kind)];
  const size_t expected = expectedFieldCount(layout, e.fields);
  if (e.fields.size() != expected) [[unlikely]]
    badFieldCount(e, expected);
  return layout;
}

inline size_t structuralCountOf(const KindLayout& layout, size_t fieldCount) {
  const size_t groups = layout.groupSize ? (fieldCount - layout.fixedCount) / layout.groupSize : 0;
  return layout.fixedStructural + groups * layout.groupStructural;
}

// A partner rank as the signature keeps it: relative to the own rank `own` (zigzag), or
// as is if the own rank is unknown (-1).
inline uint64_t relativeRank(uint64_t rank, int64_t own) {
  return own >= 0 ? zigzag(static_cast<int64_t>(rank - static_cast<uint64_t>(own))) : rank;
}

// Walks the fields of `e` in order: each value goes to *value++, each structural field
// (a rank one made relative to the own rank) to structural(index, field), which may stop
// the walk by returning false. Returns false if stopped.
template <typename Structural>
inline bool walkFields(const Event& e, const KindLayout& layout, OwnRanks& ranks, uint64_t* value,
                       Structural&& structural) {
  // In locals: the values written through `value` could alias the layout and the event.
  const KindLayout::Action* action = layout.action.data();
  const uint64_t* fields = e.fields.data();
  const size_t n = e.fields.size();
  const size_t fixedCount = layout.fixedCount;
  int64_t own = -1;
  bool ownKnown = false;
  size_t k = 0;  // structural fields so far
  auto walk = [&](uint64_t v, KindLayout::Action a) {
    if (a == KindLayout::kValue) {
      *value++ = v;
      return true;
    }
    if (a == KindLayout::kRank) {
      if (!ownKnown) {
        own = ranks.rankIn(static_cast<Ref>(fields[layout.commField]), e.location);
        ownKnown = true;
      }
      v = relativeRank(v, own);
    }
    return structural(k++, v);
  };
  for (size_t i = 0; i < fixedCount; ++i)
    if (!walk(fields[i], action[i])) return false;
  // Then the group's schema fields over and over.
  for (size_t i = fixedCount, si = fixedCount; i < n; ++i) {
    if (!walk(fields[i], action[si])) return false;
    si = si + 1 < fixedCount + layout.groupSize ? si + 1 : fixedCount;
  }
  return true;
}

// Room for `valueCount` values at the front of `values` (they are written by pointer).
inline uint64_t* valueRoom(size_t valueCount, std::vector<uint64_t>& values) {
  if (values.size() < valueCount) values.resize(valueCount);
  return values.data();
}

}  // namespace

// One table lookup, no schema walk (splitIfSignature is the path of most events).
size_t splitEvent(const Event& e, OwnRanks& ranks, Signature& sig, std::vector<uint64_t>& values) {
  const KindLayout& layout = checkedLayout(e);
  // Sized first (usually as for the previous event: no change), then written in place.
  const size_t structuralCount = structuralCountOf(layout, e.fields.size());
  sig.kind = e.kind;
  sig.fields.resize(structuralCount);
  sig.attributes.resize(e.attributes.size());
  const size_t valueCount = e.fields.size() - structuralCount + e.attributes.size();
  uint64_t* value = valueRoom(valueCount, values);
  uint64_t* structural = sig.fields.data();
  walkFields(e, layout, ranks, value, [structural](size_t k, uint64_t v) {
    structural[k] = v;
    return true;
  });
  value += valueCount - e.attributes.size();
  for (size_t i = 0; i < e.attributes.size(); ++i) {
    sig.attributes[i] = SignatureAttribute{e.attributes[i].attribute, e.attributes[i].type};
    *value++ = e.attributes[i].value;
  }
  return valueCount;
}

namespace {

// Puts the attribute values of `e` at `value` if its attributes are those of `sig` (as
// many of them, checked by the caller).
inline bool attributesMatch(const Event& e, const Signature& sig, uint64_t* value) {
  for (size_t i = 0; i < e.attributes.size(); ++i) {
    if (sig.attributes[i].attribute != e.attributes[i].attribute ||
        sig.attributes[i].type != e.attributes[i].type)
      return false;
    *value++ = e.attributes[i].value;
  }
  return true;
}

// The fixed fields of a kind without group, by action, in arrays: splitIfSignature's
// path for most MPI events reads them with no vector to load (KindLayout has the same
// fields in vectors).
struct FixedLayout {
  static constexpr size_t kMax = 8;  // kinds with more fields take the general path
  bool usable = false;               // false: a kind with a group or more than kMax fields
  uint8_t fieldCount = 0;            // the event's fields
  uint8_t structuralCount = 0;
  uint8_t commField = 0;
  uint8_t plainCount = 0, rankCount = 0, valueCount = 0;
  std::array<KindLayout::StructuralField, kMax> plain{}, rank{};  // kStructural, kRank
  std::array<uint8_t, kMax> value{};                              // kValue
};

std::array<FixedLayout, kEventKindCount> makeFixedLayouts() {
  std::array<FixedLayout, kEventKindCount> all{};
  for (size_t k = 0; k < kEventKindCount; ++k) {
    const KindLayout& layout = kLayouts.layouts[k];
    if (layout.groupSize != 0 || layout.fixedCount == 0 || layout.fixedCount > FixedLayout::kMax)
      continue;
    FixedLayout& f = all[k];
    f.usable = true;
    f.fieldCount = static_cast<uint8_t>(layout.fixedCount);
    f.structuralCount = static_cast<uint8_t>(layout.fixedStructural);
    f.commField = static_cast<uint8_t>(std::max(layout.commField, 0));
    f.plainCount = static_cast<uint8_t>(layout.fixedPlainFields.size());
    f.rankCount = static_cast<uint8_t>(layout.fixedRankFields.size());
    f.valueCount = static_cast<uint8_t>(layout.fixedValueFields.size());
    std::copy(layout.fixedPlainFields.begin(), layout.fixedPlainFields.end(), f.plain.begin());
    std::copy(layout.fixedRankFields.begin(), layout.fixedRankFields.end(), f.rank.begin());
    std::copy(layout.fixedValueFields.begin(), layout.fixedValueFields.end(), f.value.begin());
  }
  return all;
}

// After kLayouts (same translation unit: initialised in order).
const std::array<FixedLayout, kEventKindCount> kFixedLayouts = makeFixedLayouts();

// splitIfSignature for an event of a FixedLayout kind whose field count is right.
inline size_t splitFixedIfSignature(const Event& e, const FixedLayout& layout, OwnRanks& ranks,
                                    const Signature& sig, std::vector<uint64_t>& values) {
  if (sig.fields.size() != layout.structuralCount) return kNotThisSignature;
  const uint64_t* fields = e.fields.data();
  const uint64_t* expected = sig.fields.data();
  for (size_t i = 0; i < layout.plainCount; ++i)
    if (fields[layout.plain[i].index] != expected[layout.plain[i].slot]) return kNotThisSignature;
  if (layout.rankCount != 0) {
    const int64_t own = ranks.rankIn(static_cast<Ref>(fields[layout.commField]), e.location);
    for (size_t i = 0; i < layout.rankCount; ++i)
      if (relativeRank(fields[layout.rank[i].index], own) != expected[layout.rank[i].slot])
        return kNotThisSignature;
  }
  const size_t valueCount = layout.valueCount + e.attributes.size();
  uint64_t* value = valueRoom(valueCount, values);
  for (size_t i = 0; i < layout.valueCount; ++i) value[i] = fields[layout.value[i]];
  if (e.attributes.empty()) [[likely]]
    return valueCount;
  return attributesMatch(e, sig, value + layout.valueCount) ? valueCount : kNotThisSignature;
}

}  // namespace

size_t splitIfSignature(const Event& e, OwnRanks& ranks, const Signature& sig,
                        std::vector<uint64_t>& values) {
  if (sig.kind != e.kind || sig.attributes.size() != e.attributes.size()) return kNotThisSignature;
  if (static_cast<size_t>(e.kind) < kEventKindCount) [[likely]] {
    const FixedLayout& fixed = kFixedLayouts[static_cast<size_t>(e.kind)];
    if (fixed.usable && e.fields.size() == fixed.fieldCount)
      return splitFixedIfSignature(e, fixed, ranks, sig, values);
  }
  const KindLayout& layout = checkedLayout(e);  // throws if the field count is wrong
  const size_t structuralCount = structuralCountOf(layout, e.fields.size());
  if (sig.fields.size() != structuralCount) return kNotThisSignature;
  const size_t valueCount = e.fields.size() - structuralCount + e.attributes.size();
  uint64_t* value = valueRoom(valueCount, values);
  const uint64_t* structural = sig.fields.data();
  if (!walkFields(e, layout, ranks, value,
                  [structural](size_t k, uint64_t v) { return structural[k] == v; }))
    return kNotThisSignature;
  value += valueCount - e.attributes.size();
  return attributesMatch(e, sig, value) ? valueCount : kNotThisSignature;
}

namespace {

struct SignatureShape {
  size_t fieldCount = 0;       // fields of the event
  size_t structuralCount = 0;  // of them structural (== sig.fields.size() if well formed)
};

SignatureShape shapeOf(const Signature& sig) {
  const KindSchema& schema = checkedSchema(sig.kind);
  const KindLayout& layout = layoutOf(sig.kind);
  SignatureShape shape;
  size_t structuralFixed = 0;
  for (size_t i = 0; i < schema.fixedCount; ++i) structuralFixed += layout.structural[i];
  shape.fieldCount = schema.fixedCount;
  shape.structuralCount = structuralFixed;
  if (!schema.hasGroup()) return shape;
  // The repetition count is the last fixed field, structural for every grouped kind.
  const uint64_t repeats = structuralFixed > 0 && sig.fields.size() >= structuralFixed
                               ? sig.fields[structuralFixed - 1]
                               : 0;
  size_t groupStructural = 0;
  for (size_t i = schema.fixedCount; i < schema.fields.size(); ++i)
    groupStructural += layout.structural[i];
  if (repeats > (uint64_t{1} << 20)) return SignatureShape{~size_t{0}, ~size_t{0}};
  shape.fieldCount += static_cast<size_t>(repeats) * schema.groupSize;
  shape.structuralCount += static_cast<size_t>(repeats) * groupStructural;
  return shape;
}

}  // namespace

bool signatureWellFormed(const Signature& sig) {
  if (static_cast<size_t>(sig.kind) >= kEventKindCount) return false;
  return shapeOf(sig).structuralCount == sig.fields.size();
}

size_t valueCountOf(const Signature& sig) {
  const SignatureShape shape = shapeOf(sig);
  return shape.fieldCount - shape.structuralCount + sig.attributes.size();
}

void joinEvent(const Signature& sig, const uint64_t* values, LocationId location, Tick time,
               OwnRanks& ranks, Event& e) {
  const KindSchema& schema = checkedSchema(sig.kind);
  const KindLayout& layout = layoutOf(sig.kind);
  const size_t fieldCount = shapeOf(sig).fieldCount;
  e.kind = sig.kind;
  e.location = location;
  e.time = time;
  e.fields.resize(fieldCount);
  size_t nextStructural = 0;
  for (size_t i = 0; i < fieldCount; ++i)
    e.fields[i] =
        layout.structural[schemaIndex(schema, i)] ? sig.fields[nextStructural++] : *values++;
  // Rank fields were stored relative to the own rank in the event's communicator, which
  // may come after them in the schema: fix them once every field is in place.
  if (layout.commField >= 0) {
    const int64_t own = ranks.rankIn(static_cast<Ref>(e.fields[layout.commField]), location);
    for (size_t i = 0; i < fieldCount && own >= 0; ++i)
      if (schema.fields[schemaIndex(schema, i)].type == FieldType::Rank)
        e.fields[i] = static_cast<uint64_t>(unzigzag(e.fields[i]) + own);
  }
  e.attributes.resize(sig.attributes.size());
  for (size_t i = 0; i < sig.attributes.size(); ++i)
    e.attributes[i] =
        EventAttribute{sig.attributes[i].attribute, sig.attributes[i].type, *values++};
}

namespace {

// The rank fields of `plan`, structural with a structural communicator, made absolute
// once; otherwise marks them for fixRanksPerEvent.
void makeRanksAbsolute(const KindLayout& layout, LocationId location, OwnRanks& ranks,
                       JoinPlan& plan) {
  bool rankIsValue = false;
  for (uint32_t i : plan.rankFields)
    rankIsValue = rankIsValue || std::find(plan.valueFields.begin(), plan.valueFields.end(), i) !=
                                     plan.valueFields.end();
  if (rankIsValue || !layout.structural[static_cast<size_t>(layout.commField)]) {
    plan.ranksPerEvent = true;
    return;
  }
  const int64_t own = ranks.rankIn(static_cast<Ref>(plan.fields[layout.commField]), location);
  if (own >= 0)
    for (uint32_t i : plan.rankFields)
      plan.fields[i] = static_cast<uint64_t>(unzigzag(plan.fields[i]) + own);
}

}  // namespace

JoinPlan planJoin(const Signature& sig, LocationId location, OwnRanks& ranks) {
  const KindSchema& schema = checkedSchema(sig.kind);
  const KindLayout& layout = layoutOf(sig.kind);
  const size_t fieldCount = shapeOf(sig).fieldCount;
  JoinPlan plan;
  plan.kind = sig.kind;
  plan.fields.assign(fieldCount, 0);
  plan.commField = layout.commField;
  size_t nextStructural = 0;
  for (size_t i = 0; i < fieldCount; ++i) {
    const size_t field = schemaIndex(schema, i);
    if (schema.fields[field].type == FieldType::Rank)
      plan.rankFields.push_back(static_cast<uint32_t>(i));
    if (layout.structural[field])
      plan.fields[i] = sig.fields[nextStructural++];
    else
      plan.valueFields.push_back(static_cast<uint32_t>(i));
  }
  plan.attributes = sig.attributes;
  plan.valueCount = static_cast<uint32_t>(plan.valueFields.size() + plan.attributes.size());
  if (layout.commField >= 0) makeRanksAbsolute(layout, location, ranks, plan);
  std::vector<uint64_t> zeros(plan.valueCount, 0);
  joinPlanned(plan, zeros.data(), location, 0, ranks, plan.ready);
  return plan;
}

void assignFields(Event& e, const uint64_t* from, size_t count) {
  if (e.fields.capacity() < count) e.fields.reserve(std::max<size_t>(count, 8));
  e.fields.assign(from, from + count);
}

void fixRanksPerEvent(const JoinPlan& plan, LocationId location, OwnRanks& ranks, Event& e) {
  const int64_t own = ranks.rankIn(static_cast<Ref>(e.fields[plan.commField]), location);
  if (own < 0) return;
  for (uint32_t i : plan.rankFields)
    e.fields[i] = static_cast<uint64_t>(unzigzag(e.fields[i]) + own);
}

JoinPlan& LocationJoiner::make(SigId sig) {
  plans_.push_back(planJoin(model_.signatures.at(sig), location_, ranks_));
  bySig_.at(sig) = &plans_.back();
  return plans_.back();
}

}  // namespace mtf::compaction
