#include "model/thread_messages.hpp"

namespace mtf {

Ref findAttributeNamed(const Definitions& defs, std::string_view name) {
  for (const DefRecord& r : defs.records())
    if (r.kind == DefKind::Attribute && defs.string(r.field("name")) == name)
      return static_cast<Ref>(r.fields[0]);
  return kUndefinedRef;
}

bool ThreadMessageAttributes::find(const Event& e, Ref attribute, uint64_t& value) {
  return attributeValue(e, attribute, value);
}

void ThreadMessageLosses::event(const Event& e) {
  if (!attributes_.declared() || !(isSend(e.kind) || isRecv(e.kind))) return;
  uint64_t value = 0;
  if (attributes_.peerOf(e, value)) ++otherThreads_;
  if (attributes_.idOf(e, value)) ++outOfOrder_;
}

void ThreadMessageLosses::report(LossReport& report, const std::string& peerText,
                                 const std::string& orderText) const {
  if (otherThreads_) report[peerText] += otherThreads_;
  if (outOfOrder_) report[orderText] += outOfOrder_;
}

}  // namespace mtf
