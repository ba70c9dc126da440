// Writes a trace as Paraver: .prv (or .prv.gz) + .pcf + .row (see writer_layout.hpp for
// how locations, calls and metrics are laid out). Records are sorted as Paraver expects
// (by time; communications before events before states at equal time) through an
// external sort, so events may come interleaved or location after location. A trace read
// from Paraver keeps each thread's records in the order its file had them instead (the
// order paraver-kernel keeps among a thread's records of equal time and type, and the one
// mtf's reader reads): states among the events of their time, records the reader moved
// (out of time order) where they were, a communication record where the reader gave its
// halves (paraverPlace).
//
// Messages: each send is matched with its receive in FIFO order by (sender task, receiver
// task, comm, tag), or, in a trace that says which threads messages join (a Paraver one:
// model/thread_messages.hpp), by thread channel (sender location, receiver location, comm,
// tag), and halves that carry a message id by that id; the pair becomes one
// communication record. Sends and receives
// waiting for their partner are kept in memory (one small entry each): with input that
// comes location after location, that is every message of the locations read so far.
//
// Collectives: MpiCollectiveBegin/End become Extrae's global OP pairs on "2:" lines at
// their own times, their communicators "c:" lines of the header (collectives.hpp,
// collective_comms.hpp); those read from type-4 records are written back as type-4 records.
#pragma once

#include <deque>
#include <filesystem>
#include <memory>
#include <unordered_map>

#include "converters/paraver/collective_comms.hpp"
#include "converters/paraver/output_file.hpp"
#include "converters/paraver/recent_cache.hpp"
#include "converters/paraver/record_sorter.hpp"
#include "converters/paraver/writer_layout.hpp"
#include "model/mpi_ranks.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"
#include "registry/registry.hpp"
#include "util/text_buffer.hpp"

namespace mtf::paraver {

// About as many events as the sorter's 64 MiB of records hold (ParaverWriter::takeTimeOrder).
inline constexpr uint64_t kTimeOrderFromEvents = uint64_t{1} << 20;

class ParaverWriter : public TraceSink {
 public:
  ParaverWriter(std::filesystem::path path, const WriteOptions& options);
  ~ParaverWriter() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  // True when the output is the same whatever order the locations' events interleave in
  // (see canStream): the writer then writes as the events come, sorting only records
  // that wait for a later one (paraver_writer_stream.cpp).
  bool takeTimeOrder() override;
  // Time order is taken only for traces that declare at least this many events: below it
  // the sorter holds every record in memory anyway, and time order costs more (its heap over
  // the locations, more memory) than it saves. Tests set 0 to compare both paths.
  void setTimeOrderFromEvents(uint64_t events) { timeOrderFromEvents_ = events; }
  LossReport losses() const override { return losses_; }
  // The .prv actually written (x.prv.gz when compression was asked for x.prv).
  const std::filesystem::path& prvPath() const { return prvPath_; }

 private:
  struct MessageQueues;
  struct MessageKey {
    uint64_t sender, receiver, comm, tag;  // tasks, or locations (thread channels)
    bool operator==(const MessageKey&) const = default;
  };
  // A location's (communicator, rank) peer as asked of RankMap::locationOf, which takes
  // three hash lookups.
  struct PeerKey {
    uint64_t comm, rank, self;
    bool operator==(const PeerKey&) const = default;
  };
  struct LocationState {
    bool lineOpen = false;
    Tick lineTime = 0;
    Tick lineSortTime = 0;   // Context::sortTime of its events
    uint64_t lineOrder = 0;  // a Paraver trace's: reserved when the line opened
    uint64_t lineCpu = 0;
    TextBuffer line;
    bool started = false;  // derived states (traces not from Paraver)
    uint32_t state = 1;
    Tick stateSince = 0;
    // ":time" of the last state record's end (appendTime): the next state's begin, and
    // the time of the event line that changed the state, are the same value.
    Tick endTextTime = 0;
    TextBuffer endText;
    uint32_t mpiDepth = 0;
    Tick callStart = 0;
    Tick lastTime = 0;
    uint64_t placeCpu = 0;
    TextBuffer placeText;   // "cpu:appl:task:thread" for placeCpu (appendPlace)
    uint64_t position = 0;  // of the location in the definitions
    uint64_t records = 0;   // records it gave (recordOrder)
    // Recently used message channels (time-ordered input, whose channels stay) and peers.
    RecentCache<MessageKey, MessageQueues*, 4> channels;
    RecentCache<PeerKey, uint64_t, 4> peers;
  };
  struct MessageHalf {
    const ThreadPlace* place;
    uint64_t cpu;
    Tick logical, physical;
    Tick sortTime;  // where its event came (Context::sortTime): `physical` unless moved
    uint64_t size;
    uint64_t order;  // recordOrder() of its event (time-ordered input)
  };
  struct MessageKeyHash {
    size_t operator()(const MessageKey& k) const {
      return std::hash<uint64_t>()(
          ((k.sender * 1000003 + k.receiver) * 1000003 + k.comm) * 1000003 + k.tag);
    }
  };
  struct MessageQueues {
    std::deque<MessageHalf> sends, receives;
  };
  struct IdentifiedHalf {
    MessageHalf half;
    bool send;
  };
  struct Context {  // what every handler needs about the current event
    const Event& e;
    const ThreadPlace& place;
    LocationState& state;
    Tick time;
    // Where its records go among the location's: `time`, or for an event a Paraver file
    // had out of time order (the reader moved it later, its own time in paraver:time)
    // the time it was moved to, so that the records come back where the file had them.
    Tick sortTime;
    uint64_t cpu;
  };

  void dispatch(const Context& c);
  void callEvent(const Context& c);
  void metricEvent(const Context& c);
  void messageEvent(const Context& c, bool send);
  MessageQueues& queuesOf(LocationState& s, const MessageKey& key);
  uint64_t peerLocationOf(LocationState& s, const Event& e);
  void matchById(uint64_t id, const MessageHalf& half, bool send, uint64_t tag);
  void globalOpEvent(const Context& c);
  void collectiveBeginEvent(const Context& c);
  void collectiveEndEvent(const Context& c);
  void otherEvent(const Context& c);
  void stateEvent(const Context& c);
  void addPair(const Context& c, uint64_t type, std::string_view value);
  void addPair(const Context& c, uint64_t type, int64_t value);
  TextBuffer& openLine(const Context& c);  // the location's "2:" line at the event's time
  void closeLine(LocationState& state);
  void changeState(LocationState& s, const ThreadPlace& place, Tick time, uint32_t next);
  // `late`: a derived state's record, at its end (expectStateRecord).
  void stateRecord(const ThreadPlace& place, uint64_t cpu, Tick begin, Tick end, uint64_t state,
                   bool late, Tick sortTime);
  void expectStateRecord(LocationState& s);
  void communicationRecord(const MessageHalf& send, const MessageHalf& receive, uint64_t tag);
  static const MessageHalf& paraverPlace(const MessageHalf& send, const MessageHalf& receive);
  bool attribute(const Event& e, Ref attribute, uint64_t& value) const;
  void appendPlace(TextBuffer& out, uint64_t cpu, const ThreadPlace& place);
  static void appendTime(TextBuffer& out, const LocationState& s, Tick time);
  void addRecord(Tick time, uint8_t rank, LocationState& emitter, const TextBuffer& line,
                 bool late = false);
  // Time-ordered input (paraver_writer_stream.cpp).
  bool canStream() const;
  // A trace read from Paraver: each thread's records go where their events came (its
  // traces never take time order: canStream()).
  bool keepsFileOrder() const { return layout_->paraverOrigin() && !timeOrdered_; }
  bool tasksHaveOneLocation() const;
  std::vector<std::string> expectedCommunicatorLines() const;
  void openBody();
  void releaseBefore(Tick eventTime);
  void finishBody(const std::string& header, const std::vector<uint64_t>& renumbered);
  // Where the next record of `s` goes among records of equal time and rank: after those of
  // the locations before it and its own earlier ones; after all of these in end().
  uint64_t recordOrder(LocationState& s) {
    return (phase_ << 55) | (s.position << 35) | s.records++;
  }

  std::filesystem::path prvPath_;
  WriteOptions options_;
  const Definitions* defs_ = nullptr;
  std::unique_ptr<WriterLayout> layout_;
  std::unique_ptr<RankMap> ranks_;
  std::unique_ptr<RecordSorter> sorter_;
  std::unique_ptr<CommunicatorIds> comms_;
  bool wroteCollectives_ = false;      // the .pcf then labels the collective pairs
  std::vector<LocationState> states_;  // by place position (slot - 1)
  std::unordered_map<MessageKey, MessageQueues, MessageKeyHash> messages_;
  std::unordered_map<uint64_t, IdentifiedHalf> messagesById_;
  ThreadMessageAttributes threadMessages_;
  std::map<uint64_t, bool> genericTypes_;
  Ref cpuAttr_ = kUndefinedRef, newLineAttr_ = kUndefinedRef, logicalSendAttr_ = kUndefinedRef,
      timeAttr_ = kUndefinedRef, logicalRecvAttr_ = kUndefinedRef, globalOpAttr_ = kUndefinedRef,
      commIdAttr_ = kUndefinedRef;
  LossReport losses_;
  uint64_t roundedTimes_ = 0;
  uint64_t refusedCpus_ = 0;  // CPUs paraver-kernel would refuse, replaced
  TextBuffer record_;         // a record line being built
  bool streamable_ = false;   // canStream(), from the definitions
  bool timeOrdered_ = false;  // the events come in time order
  uint64_t timeOrderFromEvents_ = kTimeOrderFromEvents;
  uint64_t phase_ = 0;                // 1 in end()
  std::unique_ptr<OutputFile> body_;  // the .prv while the events come, in time order
  size_t nextRelease_ = 0;            // bufferedBytes() at which to release records
};

}  // namespace mtf::paraver
