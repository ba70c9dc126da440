#include "values/chunk_compressor.hpp"

#include <algorithm>

namespace mtf::values {

void RawChunk::reserveRows(size_t n) {
  contexts.resize(n);
  times.resize(n);
  valueCounts.resize(n);
}

void RawChunk::reserve(uint64_t events, size_t valueCount) {
  const size_t n = static_cast<size_t>(events < (1u << 16) ? events : (1u << 16));
  if (n > contexts.size()) reserveRows(n);
  if (valueCount > values.size()) values.resize(valueCount);
}

void RawChunk::makeRoom(size_t count) {
  if (rows_ == contexts.size()) reserveRows(rows_ < 32 ? 64 : rows_ * 2);
  if (values.size() - valuesUsed_ < count) {
    const size_t doubled = values.size() < 128 ? 256 : values.size() * 2;
    values.resize(std::max(valuesUsed_ + count, doubled));
  }
}

// A worker's own coder and buffers, reused from chunk to chunk (finishPayload resets the
// encoder; its buffers stay).
struct ChunkCompressor::Worker {
  ColumnEncoder encoder;
  PendingChunk pending;
  ChunkEntropyCoder coder;
  Worker(uint8_t timeMode, int level) : encoder(uint64_t{1} << 16, timeMode) {
    coder.level = level;
  }
};

namespace {
unsigned workerCount(unsigned asked) {
  return asked ? asked : std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
}
}  // namespace

ChunkCompressor::ChunkCompressor(Deliver deliver, uint8_t timeMode, int level, size_t maxQueued,
                                 DictionaryGate::DeliverDictionary deliverDictionary,
                                 unsigned workers)
    : deliver_(std::move(deliver)),
      timeMode_(timeMode),
      level_(level),
      gate_(level, deliver_, std::move(deliverDictionary), workerCount(workers)),
      maxQueued_(maxQueued ? maxQueued : 1) {
  // The gate decides on one worker while the others wait for their turn: it compresses the
  // chunks it held on as many threads as there are workers.
  for (unsigned k = 0; k < workerCount(workers); ++k) workers_.emplace_back([this] { run(); });
}

ChunkCompressor::~ChunkCompressor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

// A failure stays: every later call throws it again, and nothing more is delivered.
void ChunkCompressor::rethrow() {
  if (failure_) std::rethrow_exception(failure_);
}

void ChunkCompressor::submit(LocationId location, RawChunk&& chunk) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < maxQueued_ || failure_; });
  rethrow();
  queue_.push_back({submitted_++, location, std::move(chunk)});
  lock.unlock();
  changed_.notify_all();
}

void ChunkCompressor::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && busy_ == 0) || failure_; });
  rethrow();
  // The workers are idle and nothing more is submitted: deliver the chunks the gate holds,
  // compressed on every core (reading and compaction are over).
  lock.unlock();
  gate_.finish(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

void ChunkCompressor::encode(const RawChunk& raw, ColumnEncoder& encoder, PendingChunk& pending) {
  encoder.addEvents(raw.contexts.data(), raw.times.data(), raw.valueCounts.data(),
                    raw.values.data(), raw.size(), raw.valueCount());
  encoder.finishPayload(raw.firstEvent, pending);
}

// Waits (holding `lock`) until `turn` is `mine`; false if the compressor stops or failed.
bool ChunkCompressor::waitForTurn(const uint64_t& turn, uint64_t mine,
                                  std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [&] { return turn == mine || failure_ || stop_; });
  return !failure_ && !stop_;
}

// In its turn, the chunk passes the gate: while the gate holds chunks for its decision it
// takes this one too (and, deciding, compresses and delivers all it held). After that, the
// chunk is compressed beside the other workers' and delivered in its turn. `lock` is held
// on entry and on return; a chunk is dropped if the compressor stops or failed.
void ChunkCompressor::passGate(const Queued& item, Worker& worker,
                               std::unique_lock<std::mutex>& lock) {
  if (!waitForTurn(gateTurn_, item.turn, lock)) return;
  if (gate_.deciding()) {
    lock.unlock();  // only the worker whose turn it is touches the gate
    gate_.add(item.location, worker.pending);
    lock.lock();
    if (!gate_.deciding()) deliverTurn_ = item.turn + 1;  // it delivered all up to this one
    gateTurn_ = item.turn + 1;
    changed_.notify_all();
    return;
  }
  gateTurn_ = item.turn + 1;
  changed_.notify_all();
  lock.unlock();
  worker.coder.dictionary = gate_.dictionary();  // set for good once the gate decided
  compressChunk(worker.pending, worker.coder);
  lock.lock();
  if (!waitForTurn(deliverTurn_, item.turn, lock)) return;
  lock.unlock();
  gate_.deliverCompressed(item.location, worker.pending);
  lock.lock();
  deliverTurn_ = item.turn + 1;
  changed_.notify_all();
}

void ChunkCompressor::run() {
  Worker worker(timeMode_, level_);
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Queued item = std::move(queue_.front());
    queue_.pop_front();
    ++busy_;
    lock.unlock();
    changed_.notify_all();  // a slot is free
    try {
      encode(item.raw, worker.encoder, worker.pending);
      lock.lock();
      passGate(item, worker, lock);
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      if (!failure_) failure_ = std::current_exception();
      queue_.clear();  // nothing after a failed chunk may be delivered
    }
    --busy_;
    changed_.notify_all();
  }
}

}  // namespace mtf::values
