// The merged tau.trc: per-thread files merged by time (ties keep file order), as
// tau_merge does. Streams: one small buffered reader per input. More inputs than can be
// open at once are merged in batches into intermediate runs first; runs are contiguous
// ranges of inputs, so ties still resolve in input order.
#include <queue>
#include <string>
#include <tuple>

#include "converters/tau/tau_writer.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {
namespace {

constexpr size_t kMaxOpenInputs = 128;
constexpr size_t kInputBufferBytes = 64 * 1024;

void mergeBatch(const std::vector<fs::path>& inputs, RecordFormat format, const fs::path& output) {
  std::vector<std::unique_ptr<RecordReader>> readers;
  std::vector<Record> heads(inputs.size());
  using Key = std::tuple<uint64_t, size_t>;  // (time, input index)
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> queue;
  for (size_t i = 0; i < inputs.size(); ++i) {
    readers.push_back(
        std::make_unique<RecordReader>(inputs[i], std::nullopt, format, kInputBufferBytes));
    if (readers[i]->next(heads[i])) queue.emplace(heads[i].time, i);
  }
  RecordAppender out(output, format, 1 << 20);
  while (!queue.empty()) {
    const size_t i = std::get<1>(queue.top());
    queue.pop();
    out.append(heads[i]);
    if (readers[i]->next(heads[i])) queue.emplace(heads[i].time, i);
  }
  out.flush();
}

}  // namespace

void mergeThreadFiles(const std::vector<fs::path>& inputs, RecordFormat format,
                      const fs::path& output) {
  if (inputs.size() <= kMaxOpenInputs) return mergeBatch(inputs, format, output);
  std::vector<fs::path> runs;
  for (size_t first = 0; first < inputs.size(); first += kMaxOpenInputs) {
    const size_t last = std::min(inputs.size(), first + kMaxOpenInputs);
    const std::vector<fs::path> batch(inputs.begin() + first, inputs.begin() + last);
    // Beside its first input, named after it: unique at every level of batching.
    runs.push_back(inputs[first].parent_path() / (".run." + inputs[first].filename().string()));
    mergeBatch(batch, format, runs.back());
  }
  mergeThreadFiles(runs, format, output);
  for (const fs::path& run : runs) fs::remove(run);
}

}  // namespace mtf::tau
