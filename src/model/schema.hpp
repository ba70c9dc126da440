// Field layouts of event and definition kinds, parsed once from the .def tables.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mtf {

enum class FieldType : uint8_t {
  U8,
  U32,
  U64,
  I64,
  F64,   // plain values (I64 and F64 stored as bit patterns in uint64_t)
  Rank,  // an MPI rank within the event's communicator
  Ref,   // a reference to a definition; FieldSpec::refKind names which
  Any    // an OTF2 attribute value typed by the preceding 'type' field
};

struct FieldSpec {
  std::string name;
  FieldType type = FieldType::U64;
  std::string refKind;    // for Ref: "string", "region", "comm", ... (the .def type word)
  bool repeated = false;  // part of the trailing repeated group
};

// The layout of one kind: fixed fields first, then an optional repeated group whose
// repetition count is the value of the last fixed field.
struct KindSchema {
  std::string name;
  std::vector<FieldSpec> fields;
  size_t fixedCount = 0;  // fields before the repeated group
  size_t groupSize = 0;   // fields per repetition (0: no repeated group)

  bool hasGroup() const { return groupSize != 0; }
  // Index of the field called `name`, or -1.
  int indexOf(std::string_view name) const;
};

// Parses "a:u32 b:region *c:u8" (throws std::logic_error on a malformed table).
KindSchema parseKindSchema(std::string_view name, std::string_view spec);

}  // namespace mtf
