// External sort of Paraver record lines by (time, record rank, arrival): records are
// buffered up to a memory limit, then spilled as a sorted run to a temporary file in the
// output's directory; drain() merges the runs (k-way, a loser tree) and removes the files.
// So the writer never holds the whole trace, whatever order the events come in.
//
// A writer whose input comes in time order can release() the records before a bound as
// it goes: then nothing is spilled unless one bound stays behind for long.
//
// Records come in streams (the writer's: one per location and record rank) that are
// mostly in order already: a buffer is not sorted as a whole, its streams are merged with
// a loser tree, and only a stream that came out of order is sorted first. A record known
// to come late (a state's, written at the state's end, at its begin's time) is put where
// it goes in its stream when the sorter was told to expect it (expectLate).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/types.hpp"
#include "util/text_buffer.hpp"

namespace mtf::paraver {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

// Takes the sorter's records in order, in blocks of whole lines each ended by '\n' (one
// call per block of about a megabyte, not one per line).
class LineBlockSink {
 public:
  virtual void lines(std::string_view block) = 0;
  // Memory of the sink's own where the sorter may gather a block (then handed to lines()),
  // so that the sink need not copy it; empty: the sorter gathers in memory of its own.
  virtual std::span<char> blockMemory() { return {}; }

 protected:
  ~LineBlockSink() = default;
};

class RecordSorter {
 public:
  // Temporary runs are named `tempPrefix` + ".runN.tmp".
  RecordSorter(std::filesystem::path tempPrefix, size_t memoryLimitBytes);
  ~RecordSorter();
  RecordSorter(const RecordSorter&) = delete;
  RecordSorter& operator=(const RecordSorter&) = delete;

  // `rank` orders records of equal time (Paraver: communications, events, states).
  // `stream`: a small number grouping records that usually come in order (any value is
  // correct; a good grouping is only faster).
  void add(Tick time, uint8_t rank, size_t stream, std::string_view line);
  void add(Tick time, uint8_t rank, std::string_view line) { add(time, rank, rank, line); }
  // As add(), copying a short line at a fixed size (the writer's lines are TextBuffers).
  // `late`: the record expected by expectLate().
  void add(Tick time, uint8_t rank, size_t stream, const TextBuffer& line, bool late = false);
  // As add(), with `order` (below 2^56) instead of the arrival order among the records of
  // equal time and rank (a writer that gets its input in another order than the one its
  // output follows).
  void addOrdered(Tick time, uint8_t rank, size_t stream, uint64_t order, std::string_view line);
  void addOrdered(Tick time, uint8_t rank, size_t stream, uint64_t order, const TextBuffer& line,
                  bool late = false);
  // A record of `stream` at `time` will come late, after records of later times: the
  // sorter notes where it goes as the stream's records come, and puts it there when it
  // comes (`late`), instead of appending it out of order (the stream would then be sorted
  // as a whole). One such record a stream at a time; the same time again keeps the note.
  void expectLate(size_t stream, Tick time) {
    if (stream >= streams_.size()) streams_.resize(stream + 1);
    Stream& s = streams_[stream];
    if (s.late != Stream::kNo && s.lateTime == time) return;
    s.late = Stream::kWaiting;
    s.lateTime = time;
  }
  // Hands the buffered records of time below `bound` to `out` in order and forgets them
  // (for a writer that knows no record before `bound` will come); false, doing nothing,
  // once a run was spilled (the records then wait for drain()).
  bool release(Tick bound, const std::function<void(std::string_view)>& out);
  bool release(Tick bound, LineBlockSink& out);
  // The memory the buffered records take.
  size_t bufferedBytes() const { return arena_.size() + items_.size() * sizeof(Item); }
  // Hands every record line to `out` in order, then removes the temporary files.
  void drain(const std::function<void(std::string_view)>& out);
  void drain(LineBlockSink& out);
  size_t runCount() const { return runs_.size(); }
  // Streams sorted so far in a merge (each came out of order).
  uint64_t sortedStreams() const { return sortedStreams_; }
  uint64_t recordCount() const { return sequence_ - reserved_; }
  // An arrival order for a record to be added later by addOrdered(): it goes where a
  // record added now would have gone among those of its time and rank.
  uint64_t reserveOrder() {
    ++reserved_;
    return sequence_++;
  }

  static constexpr uint32_t kNone = UINT32_MAX;
  struct Item {
    Tick time;
    uint64_t sequence;  // arrival order, keeps the sort stable; rank in the top byte
    size_t offset;
    uint32_t length;
    uint32_t next;  // the stream's next item, or kNone
  };

 private:
  // A stream's items, chained through Item::next in one buffer (its memory is fixed,
  // however the records are spread over the streams).
  struct Stream {
    uint32_t head = kNone, tail = kNone;
    uint32_t beforeTail = kNone;  // the item linked to the tail (kNone: the tail is the head)
    bool ordered = true;
    // Its late record to come (expectLate): kWaiting until a record after lateTime comes,
    // then kPlaced after the item lateAfter (kNone: before the head).
    enum Late : uint8_t { kNo, kWaiting, kPlaced } late = kNo;
    uint32_t lateAfter = kNone;
    Tick lateTime = 0;
    // Forgets its items, not the late record to come (which goes before the next ones).
    void clearItems() {
      head = tail = beforeTail = lateAfter = kNone;
      ordered = true;
    }
  };
  // Hands the buffered items before `bound` to `out` in order; returns each used stream's
  // first item not handed (kNone: none left).
  // `interleaved`: the streams' records take turns (release(): time-ordered input).
  template <typename Out>
  std::vector<uint32_t> mergeStreams(Out&& out, Tick bound = std::numeric_limits<Tick>::max(),
                                     bool interleaved = false);
  template <typename Out>
  bool releaseTo(Tick bound, Out&& out);
  template <typename Out>
  void drainTo(Out&& out);
  void sortStream(Stream& s);
  // `readable`: bytes readable from line.data() (TextBuffer::append).
  void append(Tick time, uint64_t sequence, size_t stream, std::string_view line,
              size_t readable = 0, bool late = false);
  // Links the new item `index` of stream `s` just before its last (an event line closed
  // after the record of a state that begins at its time), or last and out of order.
  void linkBeforeLast(Stream& s, uint32_t index);
  // Links the late record `index` after s.lateAfter, where expectLate() placed it.
  void insertLate(Stream& s, uint32_t index);
  static bool before(Tick ta, uint64_t sa, Tick tb, uint64_t sb) {
    return ta != tb ? ta < tb : sa < sb;
  }
  // The record of `item` and the bytes readable from its start.
  std::pair<std::string_view, size_t> textOf(const Item& item) const {
    return {std::string_view(arena_.data() + item.offset, item.length),
            arena_.capacity() - item.offset};
  }
  void keepFrom(const std::vector<uint32_t>& heads);
  void spill();
  void clearBuffer();
  void removeRuns();
  std::filesystem::path prefix_;
  size_t limit_;
  std::vector<Stream> streams_;
  std::vector<size_t> used_;  // streams holding items
  std::vector<Item> items_;
  TextBuffer arena_;
  std::vector<Item> keptItems_;  // release(): the records kept, moved to the front
  TextBuffer keptArena_;
  std::vector<char> lineBlock_;  // release() and drain() to a LineBlockSink: lines gathered
  std::vector<std::filesystem::path> runs_;
  uint64_t sequence_ = 0;
  uint64_t reserved_ = 0;  // orders reserveOrder() handed out
  uint64_t sortedStreams_ = 0;
};

}  // namespace mtf::paraver
