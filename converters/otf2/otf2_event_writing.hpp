// The model's Events -> OTF2 event records (State and Generic through the convention).
#pragma once

#include <otf2/otf2.h>

#include <vector>

#include "converters/otf2/otf2_common.hpp"
#include "converters/otf2/otf2_convention.hpp"
#include "model/event.hpp"

namespace mtf::otf2 {

class EventEncoder {
 public:
  explicit EventEncoder(const ConventionRefs& convention);
  // Writes `e` with its attributes; returns the library's status
  // (OTF2_ERROR_INVALID_ARGUMENT for an event with too few fields).
  OTF2_ErrorCode write(OTF2_EvtWriter* writer, const Event& e);
  // A State as the Enter of `region` on its states location (otf2_convention.hpp), with
  // the State's attributes, its end and `position` (events of its thread before it).
  OTF2_ErrorCode writeStateEnter(OTF2_EvtWriter* writer, const Event& e, Ref region,
                                 uint64_t position);
  // An MpiSend written before the Leave it followed, with the convention's attribute.
  OTF2_ErrorCode writeSendBeforeLeave(OTF2_EvtWriter* writer, const Event& send);
  // Whether a State / Generic event was written (the convention's definitions are needed).
  bool usedConvention() const { return usedConvention_; }
  // Whether writeSendBeforeLeave was used (the convention's attribute for it is needed).
  bool markedSends() const { return markedSends_; }

 private:
  OTF2_AttributeList* fillAttributes(const Event& e);
  OTF2_ErrorCode writeMetric(OTF2_EvtWriter* writer, OTF2_AttributeList* list, const Event& e);
  OTF2_ErrorCode writeProgramBegin(OTF2_EvtWriter* writer, OTF2_AttributeList* list,
                                   const Event& e);
  OTF2_ErrorCode writeConvention(OTF2_EvtWriter* writer, const Event& e);

  ConventionRefs convention_;
  bool usedConvention_ = false;
  bool markedSends_ = false;
  AttributeListHandle attributes_;
  // Scratch arrays reused for every Metric / ProgramBegin: no allocation per event.
  std::vector<OTF2_Type> metricTypes_;
  std::vector<OTF2_MetricValue> metricValues_;
  std::vector<OTF2_StringRef> arguments_;
};

}  // namespace mtf::otf2
