#include "converters/otf2/otf2_def_writing.hpp"

#include <array>
#include <type_traits>
#include <utility>
#include <vector>

#include "converters/otf2/otf2_common.hpp"

// OTF2 3.0 deprecates the OpenMP events and Callsite definitions, but archives still
// hold them and a lossless copy must write them.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace mtf::otf2 {

namespace {

using WriteFn = OTF2_ErrorCode (*)(OTF2_GlobalDefWriter*, const DefRecord&);

template <typename T>
T fieldAs(const DefRecord& r, size_t i) {
  if constexpr (std::is_same_v<T, OTF2_AttributeValue>)
    return valueFromBits(static_cast<OTF2_Type>(r.fields[i - 1]), r.fields[i]);  // after its type
  else
    return static_cast<T>(r.fields[i]);
}

template <typename F>
struct DefWriterTraits;

// The common case: the writer's arguments are the record's fields, in order.
template <typename... Args>
struct DefWriterTraits<OTF2_ErrorCode (*)(OTF2_GlobalDefWriter*, Args...)> {
  template <auto Fn, size_t... I>
  static OTF2_ErrorCode call(OTF2_GlobalDefWriter* w, const DefRecord& r,
                             std::index_sequence<I...>) {
    return Fn(w, fieldAs<Args>(r, I)...);
  }
  template <auto Fn>
  static OTF2_ErrorCode write(OTF2_GlobalDefWriter* w, const DefRecord& r) {
    if (r.fields.size() < sizeof...(Args)) return OTF2_ERROR_INVALID_ARGUMENT;
    return call<Fn>(w, r, std::index_sequence_for<Args...>{});
  }
};

template <auto Fn>
constexpr WriteFn generic() {
  return &DefWriterTraits<decltype(Fn)>::template write<Fn>;
}

// The repeated group of `r`, if it holds `count` repetitions of `width` fields each.
bool hasGroup(const DefRecord& r, size_t fixed, uint64_t count, size_t width = 1) {
  return r.fields.size() == fixed + count * width;
}

template <typename T>
std::vector<T> groupAs(const DefRecord& r, size_t fixed) {
  std::vector<T> out;
  for (size_t i = fixed; i < r.fields.size(); ++i) out.push_back(static_cast<T>(r.fields[i]));
  return out;
}

OTF2_ErrorCode writeString(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.empty()) return OTF2_ERROR_INVALID_ARGUMENT;
  return OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(r.fields[0]),
                                          r.text.c_str());
}

OTF2_ErrorCode writeIoParadigm(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.size() < 6 || !hasGroup(r, 6, r.fields[5], 3)) return OTF2_ERROR_INVALID_ARGUMENT;
  std::vector<OTF2_IoParadigmProperty> properties;
  std::vector<OTF2_Type> types;
  std::vector<OTF2_AttributeValue> values;
  for (size_t i = 6; i + 2 < r.fields.size(); i += 3) {
    properties.push_back(static_cast<OTF2_IoParadigmProperty>(r.fields[i]));
    types.push_back(static_cast<OTF2_Type>(r.fields[i + 1]));
    values.push_back(valueFromBits(types.back(), r.fields[i + 2]));
  }
  return OTF2_GlobalDefWriter_WriteIoParadigm(
      w, static_cast<OTF2_IoParadigmRef>(r.fields[0]), static_cast<OTF2_StringRef>(r.fields[1]),
      static_cast<OTF2_StringRef>(r.fields[2]), static_cast<OTF2_IoParadigmClass>(r.fields[3]),
      static_cast<OTF2_IoParadigmFlag>(r.fields[4]), static_cast<uint8_t>(r.fields[5]),
      properties.data(), types.data(), values.data());
}

OTF2_ErrorCode writeGroup(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.size() < 6 || !hasGroup(r, 6, r.fields[5])) return OTF2_ERROR_INVALID_ARGUMENT;
  const std::vector<uint64_t> members = groupAs<uint64_t>(r, 6);
  return OTF2_GlobalDefWriter_WriteGroup(
      w, static_cast<OTF2_GroupRef>(r.fields[0]), static_cast<OTF2_StringRef>(r.fields[1]),
      static_cast<OTF2_GroupType>(r.fields[2]), static_cast<OTF2_Paradigm>(r.fields[3]),
      static_cast<OTF2_GroupFlag>(r.fields[4]), static_cast<uint32_t>(r.fields[5]), members.data());
}

OTF2_ErrorCode writeMetricClass(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.size() < 4 || !hasGroup(r, 4, r.fields[3])) return OTF2_ERROR_INVALID_ARGUMENT;
  const auto members = groupAs<OTF2_MetricMemberRef>(r, 4);
  return OTF2_GlobalDefWriter_WriteMetricClass(w, static_cast<OTF2_MetricRef>(r.fields[0]),
                                               static_cast<uint8_t>(r.fields[3]), members.data(),
                                               static_cast<OTF2_MetricOccurrence>(r.fields[1]),
                                               static_cast<OTF2_RecorderKind>(r.fields[2]));
}

OTF2_ErrorCode writeCartTopology(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.size() < 4 || !hasGroup(r, 4, r.fields[3])) return OTF2_ERROR_INVALID_ARGUMENT;
  const auto dimensions = groupAs<OTF2_CartDimensionRef>(r, 4);
  return OTF2_GlobalDefWriter_WriteCartTopology(
      w, static_cast<OTF2_CartTopologyRef>(r.fields[0]), static_cast<OTF2_StringRef>(r.fields[1]),
      static_cast<OTF2_CommRef>(r.fields[2]), static_cast<uint8_t>(r.fields[3]), dimensions.data());
}

OTF2_ErrorCode writeCartCoordinate(OTF2_GlobalDefWriter* w, const DefRecord& r) {
  if (r.fields.size() < 3 || !hasGroup(r, 3, r.fields[2])) return OTF2_ERROR_INVALID_ARGUMENT;
  const auto coordinates = groupAs<uint32_t>(r, 3);
  return OTF2_GlobalDefWriter_WriteCartCoordinate(
      w, static_cast<OTF2_CartTopologyRef>(r.fields[0]), static_cast<uint32_t>(r.fields[1]),
      static_cast<uint8_t>(r.fields[2]), coordinates.data());
}

std::array<WriteFn, kDefKindCount> buildTable() {
  std::array<WriteFn, kDefKindCount> t{};
  t[static_cast<size_t>(DefKind::String)] = &writeString;
  t[static_cast<size_t>(DefKind::IoParadigm)] = &writeIoParadigm;
  t[static_cast<size_t>(DefKind::Group)] = &writeGroup;
  t[static_cast<size_t>(DefKind::MetricClass)] = &writeMetricClass;
  t[static_cast<size_t>(DefKind::CartTopology)] = &writeCartTopology;
  t[static_cast<size_t>(DefKind::CartCoordinate)] = &writeCartCoordinate;
#define MTF_OTF2_DEF(kind) \
  t[static_cast<size_t>(DefKind::kind)] = generic<&OTF2_GlobalDefWriter_Write##kind>();
#include "converters/otf2/otf2_plain_definitions.def"
#undef MTF_OTF2_DEF
  return t;
}

}  // namespace

OTF2_ErrorCode writeDefinition(OTF2_GlobalDefWriter* writer, const DefRecord& record) {
  static const std::array<WriteFn, kDefKindCount> table = buildTable();
  const WriteFn fn = table[static_cast<size_t>(record.kind)];
  return fn ? fn(writer, record) : OTF2_ERROR_INVALID_ARGUMENT;
}

}  // namespace mtf::otf2
