// The merged tau.trc: per-thread files merged by time (ties keep file order), as
// tau_merge does. Streams: one buffered reader per input, one record each in memory.
#include <queue>
#include <tuple>

#include "converters/tau/tau_writer.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {

void mergeThreadFiles(const std::vector<fs::path>& inputs, RecordFormat format,
                      const fs::path& output) {
  std::vector<std::unique_ptr<RecordReader>> readers;
  std::vector<Record> heads(inputs.size());
  using Key = std::tuple<uint64_t, size_t>;  // (time, input index)
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> queue;
  for (size_t i = 0; i < inputs.size(); ++i) {
    readers.push_back(std::make_unique<RecordReader>(inputs[i], std::nullopt, format));
    if (readers[i]->next(heads[i])) queue.emplace(heads[i].time, i);
  }
  RecordAppender out(output, format);
  while (!queue.empty()) {
    const size_t i = std::get<1>(queue.top());
    queue.pop();
    out.append(heads[i]);
    if (readers[i]->next(heads[i])) queue.emplace(heads[i].time, i);
  }
  out.flush();
}

}  // namespace mtf::tau
