// The OTF2 reader's global time order: one event reader per location, each reading a
// few hundred events ahead into batches of its own, and a heap that hands on the
// earliest head event (of equal times, the location defined first). Memory is bounded
// by the locations' read-ahead and the library's chunk per open event file, whatever
// the length of the trace; traces with many locations are not read this way.
#include <sys/resource.h>

#include <algorithm>
#include <deque>

#include "converters/otf2/otf2_reader.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {

namespace {

// Events read ahead per location at once, and in all (fewer each with many locations).
constexpr size_t kMostAhead = 256, kLeastAhead = 16, kAheadInAll = size_t{1} << 16;
// File descriptors kept free for everything else while every event file is open.
constexpr size_t kSpareFiles = 64;
// The library holds a chunk of each open event file (Score-P's default: 1 MiB): all
// the locations' chunks together stay below this, or the trace is read location after
// location (memory would grow with the number of locations).
constexpr uint64_t kOpenChunkBytes = uint64_t{64} << 20;

struct LocationQueue {
  OTF2_LocationRef location = 0;
  size_t position = 0;  // in the definitions' order
  OTF2_EvtReader* reader = nullptr;
  EventReadState state;
  std::unique_ptr<EventBatcher> batcher;
  std::deque<SharedEventBatch> batches;  // read ahead, not yet handed on
  const Event* head = nullptr;           // in batches.front(), up to headEnd
  const Event* headEnd = nullptr;
  bool exhausted = false;
  void startBatch() {
    head = batches.front()->events.data();
    headEnd = head + batches.front()->size;
  }
};

// The locations' head events by (time, position): the earliest on top. Its entries hold
// the keys themselves, so that sifting reads no queue.
class HeadHeap {
 public:
  struct Head {
    Tick time;
    size_t position;
    bool operator<(const Head& o) const {
      return time != o.time ? time < o.time : position < o.position;
    }
  };
  void push(const Head& h) {
    heads_.push_back(h);
    std::push_heap(heads_.begin(), heads_.end(), later);
  }
  bool empty() const { return heads_.empty(); }
  size_t top() const { return heads_.front().position; }
  void pop() {
    std::pop_heap(heads_.begin(), heads_.end(), later);
    heads_.pop_back();
  }
  // The top location's next head: one sift down, often none (it stays the earliest).
  void replaceTop(Tick time) {
    const Head moved{time, heads_[0].position};
    size_t at = 0;
    for (size_t child = 1; child < heads_.size(); child = 2 * at + 1) {
      if (child + 1 < heads_.size() && heads_[child + 1] < heads_[child]) ++child;
      if (!(heads_[child] < moved)) break;
      heads_[at] = heads_[child];
      at = child;
    }
    heads_[at] = moved;
  }

 private:
  static bool later(const Head& a, const Head& b) { return b < a; }
  std::vector<Head> heads_;
};

// Starts the next batch of `q`, reading its next `ahead` events if it has none left;
// false when its events are all read. `failed(q, status)` throws or counts a read error.
template <typename Failed>
bool refill(OTF2_Reader* reader, LocationQueue& q, size_t ahead, Failed&& failed) {
  while (q.batches.empty() && !q.exhausted) {
    uint64_t got = 0;
    const OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(reader, q.reader, ahead, &got);
    q.batcher->flush();
    if (q.state.error) std::rethrow_exception(q.state.error);
    if (status != OTF2_SUCCESS) failed(q, status);
    q.exhausted = status != OTF2_SUCCESS || got < ahead;
  }
  if (q.batches.empty()) return false;
  q.startBatch();
  return true;
}

// Hands on the queues' events, the earliest head first; `next(q)` is refill.
template <typename Next>
void mergeQueues(std::vector<std::unique_ptr<LocationQueue>>& queues, TraceSink& sink,
                 Progress* progress, Next&& next) {
  HeadHeap heap;
  for (size_t i = 0; i < queues.size(); ++i)
    if (next(*queues[i])) heap.push({queues[i]->head->time, i});
  for (uint64_t handed = 0; !heap.empty();) {
    LocationQueue& q = *queues[heap.top()];
    sink.event(*q.head);
    if (progress) progress->tick(++handed);
    if (++q.head == q.headEnd) {
      q.batches.pop_front();
      if (!next(q)) {
        heap.pop();
        continue;
      }
    }
    heap.replaceTop(q.head->time);
  }
}

}  // namespace

bool Otf2Reader::canReadInTimeOrder(const std::vector<OTF2_LocationRef>& locations) const {
  // A send to put back after its Leave (otf2_convention.hpp) is read location by location.
  if (states_.any() || convention_.sendAfterLeaveAttribute != kUndefinedRef || locations.size() < 2)
    return false;
  uint64_t chunkEvents = 0, chunkDefinitions = 0;
  if (OTF2_Reader_GetChunkSize(reader_.get(), &chunkEvents, &chunkDefinitions) != OTF2_SUCCESS ||
      chunkEvents == 0 || locations.size() > kOpenChunkBytes / chunkEvents)
    return false;
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return false;
  return files.rlim_cur == RLIM_INFINITY || locations.size() + kSpareFiles < files.rlim_cur;
}

void Otf2Reader::readInTimeOrder(const std::vector<OTF2_LocationRef>& locations, TraceSink& sink,
                                 Progress& progress) {
  Lane lane{reader_.get(), locations};
  for (const OTF2_LocationRef location : locations)
    OTF2_Reader_SelectLocation(lane.reader, location);
  readLocalDefinitions(lane);
  if (const OTF2_ErrorCode status = OTF2_Reader_OpenEvtFiles(lane.reader); status != OTF2_SUCCESS)
    fail("", status);
  const size_t ahead = std::clamp(kAheadInAll / locations.size(), kLeastAhead, kMostAhead);
  const EvtCallbacksHandle callbacks(OTF2_EvtReaderCallbacks_New());
  registerEventCallbacks(callbacks.get());
  std::vector<std::unique_ptr<LocationQueue>> queues;
  // Closes the event readers and files however the reading ends.
  struct Closer {
    OTF2_Reader* reader;
    std::vector<std::unique_ptr<LocationQueue>>& queues;
    ~Closer() {
      for (const auto& q : queues)
        if (q->reader) OTF2_Reader_CloseEvtReader(reader, q->reader);
      OTF2_Reader_CloseEvtFiles(reader);
    }
  } closer{lane.reader, queues};
  for (size_t i = 0; i < locations.size(); ++i) {
    auto q = std::make_unique<LocationQueue>();
    LocationQueue& queue = *q;
    queue.location = locations[i];
    queue.position = i;
    queue.batcher = std::make_unique<EventBatcher>(
        [&queue](const SharedEventBatch& batch) { queue.batches.push_back(batch); }, ahead);
    queue.state.sink = &sink;
    queue.state.batcher = queue.batcher.get();
    useConvention(queue.state);
    queues.push_back(std::move(q));
    queue.reader = openEvtReader(lane, queue.location, callbacks.get(), queue.state);
  }
  const auto failed = [&](const LocationQueue& q, OTF2_ErrorCode status) {
    if (!options_.lenient)
      fail(placeLocation(q.location) + ", event " + std::to_string(q.state.delivered), status);
    takeLibraryMessage();
    lane.losses["OTF2 locations whose events could not all be read"]++;
  };
  mergeQueues(queues, sink, options_.progress ? &progress : nullptr,
              [&](LocationQueue& q) { return refill(lane.reader, q, ahead, failed); });
  for (const auto& q : queues)
    if (q->state.unknownRecords)
      lane.losses["OTF2 events of unknown kind"] += q->state.unknownRecords;
  mergeLosses(lane.losses);
}

}  // namespace mtf::otf2
