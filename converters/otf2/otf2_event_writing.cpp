#include "converters/otf2/otf2_event_writing.hpp"

#include <array>
#include <cstring>
#include <utility>

// OTF2 3.0 deprecates the OpenMP events and Callsite definitions, but archives still
// hold them and a lossless copy must write them.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace mtf::otf2 {

namespace {

using WriteFn = OTF2_ErrorCode (*)(OTF2_EvtWriter*, OTF2_AttributeList*, const Event&);

template <typename F>
struct EvtWriterTraits;

// The common case: the writer's arguments after the time are the event's fields, in order.
template <typename... Args>
struct EvtWriterTraits<OTF2_ErrorCode (*)(OTF2_EvtWriter*, OTF2_AttributeList*, OTF2_TimeStamp,
                                          Args...)> {
  template <auto Fn, size_t... I>
  static OTF2_ErrorCode call(OTF2_EvtWriter* w, OTF2_AttributeList* a, const Event& e,
                             std::index_sequence<I...>) {
    return Fn(w, a, e.time, static_cast<Args>(e.fields[I])...);
  }
  template <auto Fn>
  static OTF2_ErrorCode write(OTF2_EvtWriter* w, OTF2_AttributeList* a, const Event& e) {
    if (e.fields.size() < sizeof...(Args)) return OTF2_ERROR_INVALID_ARGUMENT;
    return call<Fn>(w, a, e, std::index_sequence_for<Args...>{});
  }
};

template <auto Fn>
constexpr WriteFn generic() {
  return &EvtWriterTraits<decltype(Fn)>::template write<Fn>;
}

std::array<WriteFn, kEventKindCount> buildTable() {
  std::array<WriteFn, kEventKindCount> t{};
#define MTF_OTF2_EVENT(kind) \
  t[static_cast<size_t>(EventKind::kind)] = generic<&OTF2_EvtWriter_##kind>();
#include "converters/otf2/otf2_plain_events.def"
#undef MTF_OTF2_EVENT
  return t;
}

// The convention's attributes (otf2_convention.hpp) are all UINT64.
void addUint64(OTF2_AttributeList* list, Ref attribute, uint64_t value) {
  OTF2_AttributeValue v;
  v.uint64 = value;
  OTF2_AttributeList_AddAttribute(list, attribute, OTF2_TYPE_UINT64, v);
}

const std::array<WriteFn, kEventKindCount>& table() {
  static const std::array<WriteFn, kEventKindCount> instance = buildTable();
  return instance;
}

}  // namespace

EventEncoder::EventEncoder(const ConventionRefs& convention)
    : convention_(convention), attributes_(OTF2_AttributeList_New()) {
  if (!attributes_) throw std::bad_alloc();
}

OTF2_AttributeList* EventEncoder::fillAttributes(const Event& e) {
  OTF2_AttributeList* list = attributes_.get();
  OTF2_AttributeList_RemoveAllAttributes(list);
  for (const EventAttribute& a : e.attributes)
    OTF2_AttributeList_AddAttribute(list, a.attribute, a.type, valueFromBits(a.type, a.value));
  return list;
}

OTF2_ErrorCode EventEncoder::write(OTF2_EvtWriter* writer, const Event& e) {
  if (e.kind == EventKind::State || e.kind == EventKind::Generic) return writeConvention(writer, e);
  OTF2_AttributeList* list = e.attributes.empty() ? nullptr : fillAttributes(e);
  if (e.kind == EventKind::Metric) return writeMetric(writer, list, e);
  if (e.kind == EventKind::ProgramBegin) return writeProgramBegin(writer, list, e);
  const WriteFn fn = table()[static_cast<size_t>(e.kind)];
  return fn ? fn(writer, list, e) : OTF2_ERROR_INVALID_ARGUMENT;
}

OTF2_ErrorCode EventEncoder::writeMetric(OTF2_EvtWriter* writer, OTF2_AttributeList* list,
                                         const Event& e) {
  if (e.fields.size() < 2 || e.fields.size() != 2 + 2 * e.fields[1])
    return OTF2_ERROR_INVALID_ARGUMENT;
  metricTypes_.clear();
  metricValues_.clear();
  for (size_t i = 2; i + 1 < e.fields.size(); i += 2) {
    OTF2_MetricValue value;
    std::memcpy(&value, &e.fields[i + 1], sizeof value);
    metricTypes_.push_back(static_cast<OTF2_Type>(e.fields[i]));
    metricValues_.push_back(value);
  }
  return OTF2_EvtWriter_Metric(writer, list, e.time, static_cast<OTF2_MetricRef>(e.fields[0]),
                               static_cast<uint8_t>(e.fields[1]), metricTypes_.data(),
                               metricValues_.data());
}

OTF2_ErrorCode EventEncoder::writeProgramBegin(OTF2_EvtWriter* writer, OTF2_AttributeList* list,
                                               const Event& e) {
  if (e.fields.size() < 2 || e.fields.size() != 2 + e.fields[1]) return OTF2_ERROR_INVALID_ARGUMENT;
  arguments_.assign(e.fields.begin() + 2, e.fields.end());
  return OTF2_EvtWriter_ProgramBegin(writer, list, e.time, static_cast<OTF2_StringRef>(e.fields[0]),
                                     static_cast<uint32_t>(e.fields[1]), arguments_.data());
}

OTF2_ErrorCode EventEncoder::writeStateEnter(OTF2_EvtWriter* writer, const Event& e, Ref region,
                                             uint64_t position) {
  usedConvention_ = true;
  OTF2_AttributeList* list = fillAttributes(e);
  addUint64(list, convention_.stateEndAttribute, e.fields[0]);
  addUint64(list, convention_.statePositionAttribute, position);
  return OTF2_EvtWriter_Enter(writer, list, e.time, region);
}

OTF2_ErrorCode EventEncoder::writeSendBeforeLeave(OTF2_EvtWriter* writer, const Event& send) {
  usedConvention_ = markedSends_ = true;
  OTF2_AttributeList* list = fillAttributes(send);
  addUint64(list, convention_.sendAfterLeaveAttribute, 1);
  return table()[static_cast<size_t>(EventKind::MpiSend)](writer, list, send);
}

// State(end, state) -> ParameterUnsignedInt("mtf:state", state) + attribute end;
// Generic(type, value) -> ParameterInt("mtf:generic", value) + attribute type.
OTF2_ErrorCode EventEncoder::writeConvention(OTF2_EvtWriter* writer, const Event& e) {
  if (e.fields.size() < 2) return OTF2_ERROR_INVALID_ARGUMENT;
  usedConvention_ = true;
  OTF2_AttributeList* list = fillAttributes(e);
  if (e.kind == EventKind::State) {
    addUint64(list, convention_.stateEndAttribute, e.fields[0]);
    return OTF2_EvtWriter_ParameterUnsignedInt(writer, list, e.time, convention_.stateParameter,
                                               e.fields[1]);
  }
  addUint64(list, convention_.genericTypeAttribute, e.fields[0]);
  return OTF2_EvtWriter_ParameterInt(writer, list, e.time, convention_.genericParameter,
                                     static_cast<int64_t>(e.fields[1]));
}

}  // namespace mtf::otf2
