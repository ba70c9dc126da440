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

ChunkCompressor::ChunkCompressor(Deliver deliver, uint8_t timeMode, int level, size_t maxQueued,
                                 DictionaryGate::DeliverDictionary deliverDictionary)
    : deliver_(std::move(deliver)),
      timeMode_(timeMode),
      gate_(level, deliver_, std::move(deliverDictionary)),
      maxQueued_(maxQueued ? maxQueued : 1) {
  worker_ = std::thread([this] { run(); });
}

ChunkCompressor::~ChunkCompressor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  worker_.join();
}

// A failure stays: every later call throws it again, and nothing more is delivered.
void ChunkCompressor::rethrow() {
  if (failure_) std::rethrow_exception(failure_);
}

void ChunkCompressor::submit(LocationId location, RawChunk&& chunk) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < maxQueued_ || failure_; });
  rethrow();
  queue_.emplace_back(location, std::move(chunk));
  lock.unlock();
  changed_.notify_all();
}

void ChunkCompressor::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || failure_; });
  rethrow();
  // The worker is idle and nothing more is submitted: deliver the chunks the gate holds,
  // compressed on every core (reading and compaction are over).
  lock.unlock();
  gate_.finish(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

void ChunkCompressor::encode(const RawChunk& raw, ColumnEncoder& encoder, PendingChunk& pending) {
  encoder.addEvents(raw.contexts.data(), raw.times.data(), raw.valueCounts.data(),
                    raw.values.data(), raw.size(), raw.valueCount());
  encoder.finishPayload(raw.firstEvent, pending);
}

void ChunkCompressor::run() {
  // Reused from chunk to chunk (finishPayload resets the encoder; its buffers stay).
  ColumnEncoder encoder(uint64_t{1} << 16, timeMode_);
  PendingChunk pending;
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    auto [location, raw] = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    changed_.notify_all();  // a slot is free
    try {
      encode(raw, encoder, pending);
      gate_.add(location, pending);
    } catch (...) {
      lock.lock();
      failure_ = std::current_exception();
      queue_.clear();  // nothing after a failed chunk may be delivered
      busy_ = false;
      lock.unlock();
      changed_.notify_all();
      lock.lock();
      continue;
    }
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace mtf::values
