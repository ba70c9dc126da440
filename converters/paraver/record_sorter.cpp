#include "converters/paraver/record_sorter.hpp"

#include <algorithm>
#include <cstring>
#include <queue>

#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace mtf::paraver {

namespace {

// Ranks take the top 8 bits of the sequence so one integer compares both.
constexpr int kRankShift = 56;

struct RunHeader {
  Tick time;
  uint64_t sequence;
  uint32_t length;
};

// Reads one spilled run back, record after record.
class RunReader {
 public:
  explicit RunReader(const std::filesystem::path& path) : path_(path) {
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) throw IoError(path.string(), "cannot reopen temporary run");
    std::setvbuf(file_.get(), nullptr, _IOFBF, 1 << 16);
  }
  bool next() {
    if (std::fread(&head_, sizeof head_, 1, file_.get()) != 1) return false;
    line_.resize(head_.length);
    if (head_.length && std::fread(line_.data(), 1, head_.length, file_.get()) != head_.length)
      throw IoError(path_.string(), "temporary run truncated");
    return true;
  }
  RunHeader head_{};
  std::string line_;

 private:
  std::filesystem::path path_;
  FileHandle file_;
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

void RecordSorter::add(Tick time, uint8_t rank, std::string_view line) {
  items_.push_back({time, (uint64_t{rank} << kRankShift) | sequence_++, arena_.size(),
                    static_cast<uint32_t>(line.size())});
  arena_.append(line);
  if (arena_.size() + items_.size() * sizeof(Item) > limit_) spill();
}

void RecordSorter::sortBuffer() {
  std::sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
    return a.time != b.time ? a.time < b.time : a.sequence < b.sequence;
  });
}

void RecordSorter::spill() {
  sortBuffer();
  const std::filesystem::path path =
      prefix_.string() + ".run" + std::to_string(runs_.size()) + ".tmp";
  runs_.push_back(path);
  FileHandle file(std::fopen(path.c_str(), "wb"));
  if (!file) throw IoError(path.string(), "cannot create temporary run");
  std::setvbuf(file.get(), nullptr, _IOFBF, 1 << 16);
  for (const Item& item : items_) {
    const RunHeader head{item.time, item.sequence, item.length};
    if (std::fwrite(&head, sizeof head, 1, file.get()) != 1 ||
        std::fwrite(arena_.data() + item.offset, 1, item.length, file.get()) != item.length)
      throw IoError(path.string(), "cannot write temporary run (disk full?)");
  }
  if (std::fflush(file.get()) != 0) throw IoError(path.string(), "cannot write temporary run");
  items_.clear();
  arena_.clear();
}

void RecordSorter::drain(const std::function<void(std::string_view)>& out) {
  sortBuffer();
  if (runs_.empty()) {
    for (const Item& item : items_) out(std::string_view(arena_.data() + item.offset, item.length));
  } else {
    if (!items_.empty()) spill();
    std::vector<std::unique_ptr<RunReader>> readers;
    using Entry = std::pair<std::pair<Tick, uint64_t>, size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (const auto& path : runs_) {
      readers.push_back(std::make_unique<RunReader>(path));
      if (readers.back()->next())
        heap.push(
            {{readers.back()->head_.time, readers.back()->head_.sequence}, readers.size() - 1});
    }
    for (uint64_t merged = 0; !heap.empty(); ++merged) {
      if (merged % 65536 == 0) throwIfInterrupted();  // a long merge stops on a signal too
      const size_t index = heap.top().second;
      heap.pop();
      RunReader& reader = *readers[index];
      out(reader.line_);
      if (reader.next()) heap.push({{reader.head_.time, reader.head_.sequence}, index});
    }
  }
  items_.clear();
  arena_.clear();
  removeRuns();
}

void RecordSorter::removeRuns() {
  std::error_code ec;
  for (const auto& path : runs_) std::filesystem::remove(path, ec);
  runs_.clear();
}

}  // namespace mtf::paraver
