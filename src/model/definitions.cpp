#include "model/definitions.hpp"

#include <array>
#include <stdexcept>

namespace mtf {

namespace {

struct DefTable {
  std::array<KindSchema, kDefKindCount> schemas;
  DefTable() {
    size_t i = 0;
#define MTF_DEF(name, spec) schemas[i++] = parseKindSchema(#name, spec);
#include "model/definition_kinds.def"
#undef MTF_DEF
  }
};

const DefTable& table() {
  static const DefTable instance;
  return instance;
}

bool hasSelf(DefKind kind) {
  const auto& fields = schemaOf(kind).fields;
  return !fields.empty() && fields[0].name == "self";
}

}  // namespace

const KindSchema& schemaOf(DefKind kind) {
  return table().schemas.at(static_cast<size_t>(kind));
}

std::string_view nameOf(DefKind kind) {
  return schemaOf(kind).name;
}

bool defKindFromName(std::string_view name, DefKind& kind) {
  for (size_t i = 0; i < kDefKindCount; ++i) {
    if (table().schemas[i].name == name) {
      kind = static_cast<DefKind>(i);
      return true;
    }
  }
  return false;
}

uint64_t DefRecord::field(std::string_view name) const {
  const int i = schemaOf(kind).indexOf(name);
  if (i < 0 || static_cast<size_t>(i) >= fields.size())
    throw std::out_of_range("definition " + std::string(nameOf(kind)) + " has no field " +
                            std::string(name));
  return fields[static_cast<size_t>(i)];
}

void Definitions::add(DefRecord record) {
  if (hasSelf(record.kind) && !record.fields.empty())
    index_[static_cast<size_t>(record.kind)][record.fields[0]] = records_.size();
  ++counts_.at(static_cast<size_t>(record.kind));
  records_.push_back(std::move(record));
}

const DefRecord* Definitions::find(DefKind kind, uint64_t self) const {
  const auto& map = index_[static_cast<size_t>(kind)];
  const auto it = map.find(self);
  return it == map.end() ? nullptr : &records_[it->second];
}

std::string_view Definitions::string(uint64_t ref) const {
  const DefRecord* r = find(DefKind::String, ref);
  return r ? std::string_view(r->text) : std::string_view();
}

std::vector<LocationView> Definitions::locations() const {
  std::vector<LocationView> out;
  for (const DefRecord& r : records_) {
    if (r.kind != DefKind::Location) continue;
    out.push_back({r.fields[0], string(r.fields[1]), static_cast<LocationType>(r.fields[2]),
                   r.fields[3], r.fields[4]});
  }
  return out;
}

RegionView Definitions::region(Ref ref) const {
  const DefRecord* r = find(DefKind::Region, ref);
  if (!r) return {};
  return {ref, string(r->fields[1]), static_cast<RegionRole>(r->fields[4]),
          static_cast<Paradigm>(r->fields[5])};
}

std::vector<uint64_t> Definitions::groupMembers(uint64_t groupRef) const {
  const DefRecord* r = find(DefKind::Group, groupRef);
  if (!r) return {};
  const auto& s = schemaOf(DefKind::Group);
  return {r->fields.begin() + static_cast<ptrdiff_t>(s.fixedCount), r->fields.end()};
}

bool Definitions::metricMembersOf(const DefRecord& r, std::vector<uint64_t>& members) const {
  const DefRecord* cls = r.kind == DefKind::MetricClass ? &r
                         : r.kind == DefKind::MetricInstance
                             ? find(DefKind::MetricClass, r.fields[1])
                             : nullptr;
  if (!cls) return false;
  const auto& s = schemaOf(DefKind::MetricClass);
  members.assign(cls->fields.begin() + static_cast<ptrdiff_t>(s.fixedCount), cls->fields.end());
  return true;
}

size_t Definitions::count(DefKind kind) const {
  return counts_.at(static_cast<size_t>(kind));
}

Ref DefinitionBuilder::next(DefKind kind) {
  return static_cast<Ref>(nextId_[static_cast<size_t>(kind)]++);
}

Ref DefinitionBuilder::string(std::string_view text) {
  const auto it = strings_.find(text);
  if (it != strings_.end()) return it->second;
  const Ref id = next(DefKind::String);
  defs_.add({DefKind::String, {id}, std::string(text)});
  strings_.emplace(std::string(text), id);
  return id;
}

uint64_t DefinitionBuilder::systemTreeNode(std::string_view name, std::string_view className,
                                           uint64_t parent) {
  const Ref id = next(DefKind::SystemTreeNode);
  const uint64_t parentRef = parent == kUndefinedId ? kUndefinedRef : parent;
  defs_.add({DefKind::SystemTreeNode, {id, string(name), string(className), parentRef}, {}});
  return id;
}

uint64_t DefinitionBuilder::locationGroup(std::string_view name, uint64_t systemTreeParent,
                                          uint8_t type) {
  const Ref id = next(DefKind::LocationGroup);
  defs_.add(
      {DefKind::LocationGroup, {id, string(name), type, systemTreeParent, kUndefinedRef}, {}});
  return id;
}

void DefinitionBuilder::location(LocationId id, std::string_view name, uint64_t group,
                                 LocationType type, uint64_t events) {
  defs_.add(
      {DefKind::Location, {id, string(name), static_cast<uint64_t>(type), events, group}, {}});
}

Ref DefinitionBuilder::region(std::string_view name, RegionRole role, Paradigm paradigm) {
  const Ref id = next(DefKind::Region);
  const Ref nameRef = string(name);
  const Ref empty = string("");
  defs_.add({DefKind::Region,
             {id, nameRef, nameRef, empty, static_cast<uint64_t>(role),
              static_cast<uint64_t>(paradigm), 0, kUndefinedRef, 0, 0},
             {}});
  return id;
}

Ref DefinitionBuilder::group(std::string_view name, uint8_t type, Paradigm paradigm,
                             const std::vector<uint64_t>& members) {
  const Ref id = next(DefKind::Group);
  DefRecord r{DefKind::Group,
              {id, string(name), type, static_cast<uint64_t>(paradigm), 0, members.size()},
              {}};
  r.fields.insert(r.fields.end(), members.begin(), members.end());
  defs_.add(std::move(r));
  return id;
}

Ref DefinitionBuilder::comm(std::string_view name, Ref group, Ref parent) {
  const Ref id = next(DefKind::Comm);
  defs_.add({DefKind::Comm, {id, string(name), group, parent, 0}, {}});
  return id;
}

Ref DefinitionBuilder::parameter(std::string_view name, uint8_t type) {
  const Ref id = next(DefKind::Parameter);
  defs_.add({DefKind::Parameter, {id, string(name), type}, {}});
  return id;
}

Ref DefinitionBuilder::metric(std::string_view name, std::string_view unit, uint8_t valueType) {
  const Ref member = next(DefKind::MetricMember);
  // metricType 0 = OTHER, mode 0 = ACCUMULATED_START, base 0 = binary, exponent 0.
  defs_.add({DefKind::MetricMember,
             {member, string(name), string(""), 0, 0, valueType, 0, 0, string(unit)},
             {}});
  const Ref cls = next(DefKind::MetricClass);
  // occurrence 0 = synchronous strict, recorderKind 0 = unknown, one member.
  defs_.add({DefKind::MetricClass, {cls, 0, 0, 1, member}, {}});
  return cls;
}

DefinitionOrder::DefinitionOrder(const Definitions& defs) {
  for (const LocationView& l : defs.locations()) position_.emplace(l.id, position_.size());
}

}  // namespace mtf
