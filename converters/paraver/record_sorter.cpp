#include "converters/paraver/record_sorter.hpp"

#include <algorithm>
#include <cstring>

#include "converters/paraver/loser_tree.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace mtf::paraver {

namespace {

// Ranks take the top 8 bits of the sequence so one integer compares both.
constexpr int kRankShift = 56;
constexpr size_t kBlockBytes = size_t{1} << 20;   // writes of a run
constexpr size_t kReadBytes = size_t{256} << 10;  // reads of each run while merging
constexpr size_t kShortLine = 64;                 // lines copied at a fixed size

// A record in a run: varint(time - the previous record's time), varint(its sequence:
// rank and order), varint(line length), the line.
constexpr size_t kMaxRecordHead = 10 + 10 + 5;

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>(v | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

// Reads one spilled run back, record after record, through a block buffer.
class RunReader {
 public:
  explicit RunReader(const std::filesystem::path& path) : path_(path), buffer_(kReadBytes) {
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) throw IoError(path.string(), "cannot reopen temporary run");
  }
  // The next record into time_, key_ and line_ (valid until the next call).
  bool next() {
    ensure(kMaxRecordHead);  // fewer at the end of the file
    if (pos_ == end_) return false;
    uint64_t delta = 0, sequence = 0, length = 0;
    if (!varint(delta) || !varint(sequence)) truncated();
    if (!varint(length) || !ensure(length)) truncated();
    time_ += delta;
    key_ = sequence;
    line_ = std::string_view(buffer_.data() + pos_, length);
    pos_ += length;
    return true;
  }
  Tick time_ = 0;
  uint64_t key_ = 0;  // the record's sequence (rank, then order)
  std::string_view line_;

 private:
  [[noreturn]] void truncated() const { throw IoError(path_.string(), "temporary run truncated"); }
  bool varint(uint64_t& v) {
    for (int shift = 0; pos_ < end_ && shift < 64; shift += 7) {
      const auto byte = static_cast<unsigned char>(buffer_[pos_++]);
      v |= uint64_t{byte & 0x7Fu} << shift;
      if (byte < 0x80) return true;
    }
    return false;
  }
  // At least `n` unread bytes in the buffer; false at the end of the file.
  bool ensure(size_t n) {
    if (end_ - pos_ >= n) return true;
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    if (buffer_.size() < n) buffer_.resize(n);
    end_ += std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_.get());
    if (std::ferror(file_.get())) throw IoError(path_.string(), "cannot read temporary run");
    return end_ >= n;
  }
  std::filesystem::path path_;
  FileHandle file_;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
};

// Writes one run through a block buffer.
class RunWriter {
 public:
  explicit RunWriter(const std::filesystem::path& path) : path_(path) {
    file_.reset(std::fopen(path.c_str(), "wb"));
    if (!file_) throw IoError(path.string(), "cannot create temporary run");
    block_.reserve(kBlockBytes + 4096);
  }
  void add(const RecordSorter::Item& item, const TextBuffer& arena) {
    putVarint(block_, item.time - lastTime_);  // the run is sorted: no negative step
    lastTime_ = item.time;
    putVarint(block_, item.sequence);
    putVarint(block_, item.length);
    block_.append(arena.data() + item.offset, item.length);
    if (block_.size() >= kBlockBytes) flush();
  }
  void close() {
    flush();
    if (std::fflush(file_.get()) != 0) throw IoError(path_.string(), "cannot write temporary run");
  }

 private:
  void flush() {
    if (std::fwrite(block_.data(), 1, block_.size(), file_.get()) != block_.size())
      throw IoError(path_.string(), "cannot write temporary run (disk full?)");
    block_.clear();
  }
  std::filesystem::path path_;
  FileHandle file_;
  std::string block_;
  Tick lastTime_ = 0;
};

// Gathers lines, each with its '\n', into blocks handed to a LineBlockSink: in the sink's
// own memory when it offers some, else in `fallback` (made kBlockBytes long). A line longer
// than a block goes on its own.
class BlockedLines {
 public:
  BlockedLines(LineBlockSink& sink, std::vector<char>& fallback)
      : sink_(sink), block_(sink.blockMemory()) {
    if (block_.empty()) {
      fallback.resize(kBlockBytes);  // once per sorter: the sorter keeps it
      block_ = fallback;
    }
  }
  BlockedLines(const BlockedLines&) = delete;
  BlockedLines& operator=(const BlockedLines&) = delete;
  // `readable`: the bytes readable from line.data(); with enough, a short line is copied
  // at a fixed size (no library call).
  void operator()(std::string_view line, size_t readable = 0) {
    if (block_.size() - used_ <= line.size()) {
      flush();
      if (block_.size() <= line.size()) return longLine(line);
    }
    if (line.size() <= kShortLine && readable >= kShortLine && block_.size() - used_ > kShortLine) {
      std::memcpy(block_.data() + used_, line.data(), kShortLine);
    } else {
      std::memcpy(block_.data() + used_, line.data(), line.size());
    }
    used_ += line.size();
    block_[used_++] = '\n';
  }
  void flush() {
    if (used_ > 0) sink_.lines(std::string_view(block_.data(), used_));
    used_ = 0;
  }

 private:
  void longLine(std::string_view line) {
    const std::string withEnd = std::string(line) + '\n';
    sink_.lines(withEnd);
  }
  LineBlockSink& sink_;
  std::span<char> block_;
  size_t used_ = 0;
};

}  // namespace

RecordSorter::RecordSorter(std::filesystem::path tempPrefix, size_t memoryLimitBytes)
    : prefix_(std::move(tempPrefix)), limit_(memoryLimitBytes) {
  // Reserved, not touched: no copying while the buffer grows to the limit.
  arena_.reserve(limit_);
  items_.reserve(limit_ / 64);
}

RecordSorter::~RecordSorter() {
  removeRuns();
}

void RecordSorter::add(Tick time, uint8_t rank, size_t stream, std::string_view line) {
  append(time, (uint64_t{rank} << kRankShift) | sequence_++, stream, line);
}

void RecordSorter::add(Tick time, uint8_t rank, size_t stream, const TextBuffer& line, bool late) {
  append(time, (uint64_t{rank} << kRankShift) | sequence_++, stream, line, line.capacity(), late);
}

void RecordSorter::addOrdered(Tick time, uint8_t rank, size_t stream, uint64_t order,
                              const TextBuffer& line, bool late) {
  ++sequence_;
  append(time, (uint64_t{rank} << kRankShift) | order, stream, line, line.capacity(), late);
}

void RecordSorter::addOrdered(Tick time, uint8_t rank, size_t stream, uint64_t order,
                              std::string_view line) {
  ++sequence_;
  append(time, (uint64_t{rank} << kRankShift) | order, stream, line);
}

void RecordSorter::append(Tick time, uint64_t sequence, size_t stream, std::string_view line,
                          size_t readable, bool late) {
  if (stream >= streams_.size()) streams_.resize(stream + 1);
  Stream& s = streams_[stream];
  const auto index = static_cast<uint32_t>(items_.size());
  items_.push_back({time, sequence, arena_.size(), static_cast<uint32_t>(line.size()), kNone});
  arena_.append(line, readable);
  bool insert = false;  // the late record goes before the stream's last one
  if (late) {
    insert = s.late == Stream::kPlaced &&
             (s.lateAfter == kNone ? s.head : items_[s.lateAfter].next) != kNone;
    s.late = Stream::kNo;
  } else if (s.late == Stream::kWaiting && time > s.lateTime) {  // the late one goes before
    s.late = Stream::kPlaced;
    s.lateAfter = s.tail;
  }
  if (insert) {
    insertLate(s, index);
  } else if (s.head == kNone) {
    used_.push_back(stream);
    s.head = s.tail = index;
  } else if (s.ordered && !before(items_[s.tail].time, items_[s.tail].sequence, time, sequence)) {
    linkBeforeLast(s, index);
  } else {
    items_[s.tail].next = index;
    s.beforeTail = s.tail;
    s.tail = index;
  }
  if (arena_.size() + items_.size() * sizeof(Item) > limit_) spill();
}

void RecordSorter::linkBeforeLast(Stream& s, uint32_t index) {
  const Item& item = items_[index];
  if (s.beforeTail != kNone &&
      !before(items_[s.beforeTail].time, items_[s.beforeTail].sequence, item.time,
              item.sequence)) {  // out of order: the stream is sorted before its merge
    s.ordered = false;
    items_[s.tail].next = index;
    s.beforeTail = s.tail;
    s.tail = index;
    return;
  }
  items_[index].next = s.tail;
  (s.beforeTail == kNone ? s.head : items_[s.beforeTail].next) = index;
  s.beforeTail = index;
}

void RecordSorter::insertLate(Stream& s, uint32_t index) {
  const uint32_t after = s.lateAfter;
  uint32_t& link = after == kNone ? s.head : items_[after].next;
  const uint32_t next = link;
  Item& item = items_[index];
  item.next = next;
  link = index;
  if (next == s.tail) s.beforeTail = index;
  // Where expectLate() placed it; checked, as any order of adds must stay correct.
  if (s.ordered && after != kNone)
    s.ordered = before(items_[after].time, items_[after].sequence, item.time, item.sequence);
  if (s.ordered)
    s.ordered = before(item.time, item.sequence, items_[next].time, items_[next].sequence);
}

// Links the items of a stream that came out of order again, in (time, sequence) order.
void RecordSorter::sortStream(Stream& s) {
  ++sortedStreams_;
  std::vector<uint32_t> order;
  for (uint32_t i = s.head; i != kNone; i = items_[i].next) order.push_back(i);
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    return before(items_[a].time, items_[a].sequence, items_[b].time, items_[b].sequence);
  });
  for (size_t k = 0; k + 1 < order.size(); ++k) items_[order[k]].next = order[k + 1];
  items_[order.back()].next = kNone;
  s.head = order.front();
  s.tail = order.back();
  s.beforeTail = order.size() > 1 ? order[order.size() - 2] : kNone;
  s.ordered = true;
}

// Hands the buffered items before `bound` to `out` in (time, sequence) order: the streams
// (each sorted first if it came out of order) merged through a loser tree.
template <typename Out>
std::vector<uint32_t> RecordSorter::mergeStreams(Out&& out, Tick bound, bool interleaved) {
  // No bound (the default) hands every item, those at the largest time too.
  const auto beforeBound = [bound](Tick t) {
    return t < bound || bound == std::numeric_limits<Tick>::max();
  };
  std::vector<uint32_t> cursor(used_.size());
  std::vector<LoserTree::Key> heads(used_.size(), LoserTree::kDone);
  for (size_t i = 0; i < used_.size(); ++i) {
    Stream& s = streams_[used_[i]];
    if (!s.ordered) sortStream(s);
    cursor[i] = s.head;
    if (beforeBound(items_[s.head].time))
      heads[i] = LoserTree::keyOf(items_[s.head].time, items_[s.head].sequence);
  }
  LoserTree tree(heads);
  while (!tree.empty()) {
    const size_t i = tree.top();
    const Item& item = items_[cursor[i]];
    out(item);
    cursor[i] = item.next;
    const bool more = cursor[i] != kNone && beforeBound(items_[cursor[i]].time);
    const LoserTree::Key next =
        more ? LoserTree::keyOf(items_[cursor[i]].time, items_[cursor[i]].sequence)
             : LoserTree::kDone;
    if (interleaved) {
      tree.replaceTopInterleaved(next);
    } else {
      tree.replaceTop(next);
    }
  }
  return cursor;
}

template <typename Out>
bool RecordSorter::releaseTo(Tick bound, Out&& out) {
  if (!runs_.empty()) return false;
  keepFrom(mergeStreams(
      [&](const Item& item) {
        const auto [line, readable] = textOf(item);
        out(line, readable);
      },
      bound, true));
  return true;
}

bool RecordSorter::release(Tick bound, const std::function<void(std::string_view)>& out) {
  return releaseTo(bound, [&](std::string_view line, size_t = 0) { out(line); });
}

bool RecordSorter::release(Tick bound, LineBlockSink& out) {
  BlockedLines blocks(out, lineBlock_);
  const bool released = releaseTo(bound, blocks);
  blocks.flush();
  return released;
}

// Keeps only the items from each used stream's `heads` on (kNone: none), moved to the
// front of fresh buffers (the old ones are kept for the next time).
void RecordSorter::keepFrom(const std::vector<uint32_t>& heads) {
  if (keptArena_.capacity() < limit_) keptArena_.reserve(limit_);
  keptItems_.clear();
  keptArena_.clear();
  std::vector<size_t> used;
  for (size_t i = 0; i < used_.size(); ++i) {
    Stream& s = streams_[used_[i]];
    const uint32_t after = s.lateAfter;
    s.clearItems();  // a late record whose place was handed out goes before the kept ones
    if (heads[i] == kNone) continue;
    used.push_back(used_[i]);
    for (uint32_t at = heads[i]; at != kNone; at = items_[at].next) {
      const Item& item = items_[at];
      const auto index = static_cast<uint32_t>(keptItems_.size());
      if (at == after) s.lateAfter = index;
      if (s.head == kNone) s.head = index;
      if (s.tail != kNone) keptItems_[s.tail].next = index;
      s.beforeTail = s.tail;
      s.tail = index;
      keptItems_.push_back({item.time, item.sequence, keptArena_.size(), item.length, kNone});
      keptArena_.append(std::string_view(arena_.data() + item.offset, item.length));
    }
  }
  used_ = std::move(used);
  items_.swap(keptItems_);
  std::swap(arena_, keptArena_);
}

void RecordSorter::clearBuffer() {
  for (size_t stream : used_) streams_[stream].clearItems();
  used_.clear();
  items_.clear();
  arena_.clear();
}

void RecordSorter::spill() {
  const std::filesystem::path path =
      prefix_.string() + ".run" + std::to_string(runs_.size()) + ".tmp";
  runs_.push_back(path);
  RunWriter run(path);
  mergeStreams([&](const Item& item) { run.add(item, arena_); });
  run.close();
  clearBuffer();
}

template <typename Out>
void RecordSorter::drainTo(Out&& out) {
  if (runs_.empty()) {
    mergeStreams([&](const Item& item) {
      const auto [line, readable] = textOf(item);
      out(line, readable);
    });
  } else {
    if (!items_.empty()) spill();
    std::vector<std::unique_ptr<RunReader>> readers;
    std::vector<LoserTree::Key> heads;
    for (const auto& path : runs_) {
      readers.push_back(std::make_unique<RunReader>(path));
      RunReader& r = *readers.back();
      heads.push_back(r.next() ? LoserTree::keyOf(r.time_, r.key_) : LoserTree::kDone);
    }
    LoserTree tree(heads);
    for (uint64_t merged = 0; !tree.empty(); ++merged) {
      if (merged % 65536 == 0) throwIfInterrupted();  // a long merge stops on a signal too
      RunReader& reader = *readers[tree.top()];
      out(reader.line_);
      tree.replaceTop(reader.next() ? LoserTree::keyOf(reader.time_, reader.key_)
                                    : LoserTree::kDone);
    }
  }
  clearBuffer();
  removeRuns();
}

void RecordSorter::drain(const std::function<void(std::string_view)>& out) {
  drainTo([&](std::string_view line, size_t = 0) { out(line); });
}

void RecordSorter::drain(LineBlockSink& out) {
  BlockedLines blocks(out, lineBlock_);
  drainTo(blocks);
  blocks.flush();
}

void RecordSorter::removeRuns() {
  std::error_code ec;
  for (const auto& path : runs_) std::filesystem::remove(path, ec);
  runs_.clear();
}

}  // namespace mtf::paraver
