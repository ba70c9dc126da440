// Messages between threads. A Paraver communication record joins two threads (OmpSs,
// COMPSs, Dimemas and Tareador traces send from thread to thread inside one task); the
// model's MpiSend/MpiRecv name a rank, whose location is the task's first thread. Two
// event attributes keep what the MPI fields cannot, each only where the default is wrong:
// - kPeerThreadAttribute (u64): the partner's location, when it is not the location of
//   the rank the event names;
// - kMessageIdAttribute (u64): an id both halves of one message carry, when the message
//   is not matched in its thread channel's order. A thread channel is (sender location,
//   receiver location, comm, tag); by default its n-th send (in the sender's event order)
//   is received by its n-th receive (in the receiver's event order).
// A trace whose definitions declare the first attribute matches its messages by thread
// channel and by id (Paraver's writer, Chrome's flow arrows); writers whose formats name
// ranks only (OTF2, TAU) count the events carrying either attribute as what their tools
// cannot see (ThreadMessageLosses). When a record needs an id: paraver/channel_order.hpp.
#pragma once

#include <string_view>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/trace_stream.hpp"

namespace mtf {

inline constexpr std::string_view kPeerThreadAttribute = "paraver:peer_thread";
inline constexpr std::string_view kMessageIdAttribute = "paraver:message";

// The attribute definition named `name`, or kUndefinedRef.
Ref findAttributeNamed(const Definitions& defs, std::string_view name);

class ThreadMessageAttributes {
 public:
  ThreadMessageAttributes() = default;
  explicit ThreadMessageAttributes(const Definitions& defs)
      : peer_(findAttributeNamed(defs, kPeerThreadAttribute)),
        id_(findAttributeNamed(defs, kMessageIdAttribute)) {}
  // The trace's messages are matched by thread channel.
  bool declared() const { return peer_ != kUndefinedRef; }
  bool peerOf(const Event& e, uint64_t& location) const { return find(e, peer_, location); }
  bool idOf(const Event& e, uint64_t& id) const { return find(e, id_, id); }

 private:
  static bool find(const Event& e, Ref attribute, uint64_t& value);
  Ref peer_ = kUndefinedRef, id_ = kUndefinedRef;
};

// Counts, for a writer whose format names ranks only, the message events that carry
// either attribute; `what` describes the consequence in the format (its own words).
class ThreadMessageLosses {
 public:
  void begin(const Definitions& defs) { attributes_ = ThreadMessageAttributes(defs); }
  void event(const Event& e);
  // Adds the counts to `report` under `peerText` and `orderText`.
  void report(LossReport& report, const std::string& peerText, const std::string& orderText) const;

 private:
  ThreadMessageAttributes attributes_;
  uint64_t otherThreads_ = 0, outOfOrder_ = 0;
};

}  // namespace mtf
