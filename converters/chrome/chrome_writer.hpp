// Writes a trace as Chrome's Trace Event Format (JSON, optionally gzip-compressed), for
// Perfetto UI, chrome://tracing and Chrome DevTools. Streaming: events are written as
// they arrive; what is kept grows with the call depth and the number of message
// channels, never with the number of events.
//
// Mapping (docs: README "Chrome / Perfetto"):
// - a location group (process) is a pid, a location a tid; their names are "M" events;
// - a call (Enter .. Leave) is one complete "X" event written at its Leave; calls still
//   open at the end are "B" events, leaves without an enter "E" events. Not B/E pairs for
//   every call, although they need no per-location stack: Chrome DevTools' trace engine
//   pairs B with E through ONE stack for the whole file, so the B/E of locations that a
//   reader interleaves (Paraver by time, OTF2 in batches) would pair across threads;
//   X events are independent of the file's order;
// - a message end is a zero-length "X" event of category "message" plus a flow event
//   ("s" at the send, "f" with "bp":"e" at the receive) whose id both ends derive alike
//   (message_flows.hpp; by thread channel or message id where the trace gives them,
//   model/thread_messages.hpp). The "f" events are spooled to a file beside the output and
//   appended after every "s": viewers that read flows in file order find each start
//   before its end, whatever order the locations came in;
// - a collective (MpiCollectiveBegin .. End) is an "X" event of category "collective";
// - a State (Paraver's thread state) is an "X" event of category "state", named by the
//   .pcf's label, on a thread of its own beside its location's ("<thread> states", made
//   at the location's first State): states need not nest with the location's calls;
//   one that ends before it begins has no length (its end in args "end_ticks");
// - a metric value is a counter "C" event per member, its series told apart by "id";
// - every other event is an instant "i" event whose args are the event's fields.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "converters/chrome/chrome_time.hpp"
#include "converters/chrome/json_output.hpp"
#include "converters/chrome/message_flows.hpp"
#include "model/mpi_ranks.hpp"
#include "model/state_names.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"
#include "registry/registry.hpp"

namespace mtf::chrome {

class ChromeWriter : public TraceSink {
 public:
  ChromeWriter(const std::filesystem::path& path, const WriteOptions& options);
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  LossReport losses() const override;

 private:
  struct OpenCall {
    Ref region = kUndefinedRef;
    int64_t ns = 0;
  };
  struct Lane {
    LocationId id = 0;
    int64_t rank = -1;     // world rank, -1 if the location is not an MPI rank
    std::string place;     // "pid":P,"tid":T,
    std::string seriesId;  // "id":"T" of its counters
    uint32_t tid = 0;
    std::string name;        // the location's
    Lane* states = nullptr;  // the lane of its State slices, made at the first one
    std::vector<OpenCall> calls;
    std::vector<int64_t> collectives;  // begin times of open collectives
  };
  struct Names {
    std::string name;  // JSON literals
    std::string category;
  };

  void placeLocations(const Definitions& defs);
  void collectNames(const Definitions& defs);
  void writeHeader(const Definitions& defs);
  Lane* laneOf(LocationId location);
  std::string& record(std::string& out, const Lane& lane, const char* phase, int64_t ns);
  const Names& regionNames(Ref region);
  void enter(Lane& lane, const Event& e, int64_t ns);
  void leave(Lane& lane, const Event& e, int64_t ns);
  void message(Lane& lane, const Event& e, int64_t ns);
  uint64_t flowIdOf(const Lane& lane, const Event& e, int64_t partner);
  void messageArgs(std::string& out, const Lane& lane, const Event& e, int64_t partner);
  void collectiveEnd(Lane& lane, const Event& e, int64_t ns);
  void metric(Lane& lane, const Event& e, int64_t ns);
  void state(Lane& lane, const Event& e, int64_t ns);
  Lane& statesLane(Lane& lane);
  bool appendMetricValue(std::string& out, uint8_t type, uint64_t bits);
  void instant(Lane& lane, const Event& e, int64_t ns);
  void appendFields(std::string& out, const Event& e);
  void appendAttributes(std::string& out, const Event& e);
  void appendName(std::string& out, std::string_view text);
  void finishLanes();
  void lose(const std::string& what, uint64_t n = 1) { losses_[what] += n; }

  std::filesystem::path path_;
  WriteOptions options_;
  bool gzip_ = false;
  const Definitions* defs_ = nullptr;
  std::optional<RankMap> ranks_;
  std::optional<MicroClock> clock_;
  std::unique_ptr<JsonOutput> out_;
  std::unique_ptr<JsonOutput> flowEnds_;  // spooled "f" events
  std::string flowEndsPath_;
  bool firstRecord_ = true;
  std::unordered_map<LocationId, Lane> lanes_;
  std::vector<std::unique_ptr<Lane>> stateLanes_;
  uint32_t nextTid_ = 0;
  std::optional<StateNames> stateNames_;
  std::unordered_map<uint64_t, std::string> stateLabels_;  // JSON literals
  Lane* lastLane_ = nullptr;
  std::unordered_map<Ref, Names> regions_;
  std::unordered_map<Ref, std::vector<Ref>> metricMembers_;  // metric -> members
  std::unordered_map<Ref, std::string> memberNames_;         // JSON literals
  MessageFlows flows_;
  ThreadMessageAttributes threadMessages_;
  LossReport losses_;
};

}  // namespace mtf::chrome
