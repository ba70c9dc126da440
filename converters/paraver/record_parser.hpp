// Turns the record lines of a .prv into model events (see paraver_reader.hpp for the
// relation between records and events). Keeps per-location state: the open MPI calls and
// functions (to pair a "value 0" with the call it leaves) and the receives waiting for
// their time (a communication record is read at its send time, its receive happens later
// on another location, and each location's events must stay in time order).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "converters/paraver/channel_order.hpp"
#include "converters/paraver/fields.hpp"
#include "converters/paraver/header.hpp"
#include "converters/paraver/kernel_rules.hpp"
#include "converters/paraver/model_mapping.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "model/trace_stream.hpp"

namespace mtf::paraver {

class RecordParser {
 public:
  RecordParser(const Header& header, const ModelMapping& mapping, const ReadOptions& options,
               const std::string& path, RecordCounts& counts, TraceSink& sink);
  // One line of the file after the header line.
  void line(std::string_view text, uint64_t lineNumber);
  // Emits the receives still waiting; call after the last line.
  void finish();

 private:
  // A send or receive waiting for its time, kept without heap allocations.
  struct PendingMessage {
    EventKind kind;
    Tick time;
    uint64_t fields[4];
    uint8_t attributeCount;
    EventAttribute attributes[4];  // cpu, logical time, peer thread, message id
    ChannelOrder::State* channel;  // a default-matched half (channel_order.hpp)
  };
  struct LocationState {
    // (event type, region) of open calls; kUndefinedRef: a value the .pcf does not name
    std::vector<std::pair<uint64_t, Ref>> open;
    // Message events waiting for their time, sorted by time from pendingHead on. A
    // vector, not a deque: an empty deque still allocates about 600 bytes, and a header
    // may declare a million threads.
    std::vector<PendingMessage> pending;
    size_t pendingHead = 0;
    Tick lastPairTime = 0;
    Tick lastTime = 0;
    bool lastWasPair = false;
  };
  struct Prefix {
    uint64_t cpu = 0;
    LocationId location = 0;
    uint32_t appl = 0, task = 0;
  };

  const char* parseRecord(char type, std::string_view fields);
  // Marks the record as one paraver-kernel reads but mtf cannot keep as it is (see
  // REFUSALS.md): it is skipped and counted (refused with --strict). Returns no problem.
  const char* tolerate(const char* what);
  void skipTolerated();
  const char* parsePrefix(FieldCursor& c, Prefix& prefix) const;
  // What paraver-kernel says of the CPU of a record end (the reader keeps the record).
  Refusal kernelVerdict(const Prefix& prefix) const;
  void tallyRefusal(RecordKind kind, const Prefix& prefix);
  const char* stateRecord(FieldCursor& c);
  const char* eventRecord(FieldCursor& c);
  const char* communicationRecord(FieldCursor& c);
  const char* globalOpRecord(FieldCursor& c);
  size_t pairEvents(const Prefix& prefix, Tick time, size_t first);
  size_t collectiveEvent(const Prefix& prefix, Tick time, size_t first);
  void pairEvent(LocationId location, Tick time, uint64_t type, int64_t value, bool unsignedForm);
  bool callEvent(LocationId location, Tick time, uint64_t type, int64_t value);
  void addCpu(uint64_t cpu, LocationId location);
  void addAttribute(Ref attribute, uint64_t value);
  void emit(bool isPair);
  void flushPending(LocationState& state, Tick upTo);
  void addMessageAttributes(const Prefix& peer, uint64_t messageId);
  void queueEvent(ChannelOrder::State* channel);
  void deliver(LocationState& state, Event& e);

  const Header& header_;
  const ModelMapping& mapping_;
  const ReadOptions& options_;
  const std::string& path_;
  RecordCounts& counts_;
  TraceSink& sink_;
  std::vector<LocationState> locations_;
  std::vector<std::pair<uint64_t, int64_t>> pairs_;
  std::vector<uint8_t> unsignedForms_;  // per pair: its value was written above INT64_MAX
  Event event_;
  Event pendingEvent_;  // a PendingMessage turned back into an Event
  bool seenRecord_ = false;
  uint64_t lineNumber_ = 0;
  const char* tolerated_ = nullptr;  // why the current record is skipped, if it is
  KernelRules rules_;
  ChannelOrder channels_;
};

}  // namespace mtf::paraver
