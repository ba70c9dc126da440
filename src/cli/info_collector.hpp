// The statistics `mtf info` prints, gathered by a sink while the trace streams past.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>

#include "model/nesting_check.hpp"
#include "model/trace_stream.hpp"
#include "util/progress.hpp"

namespace mtf::cli {

class InfoCollector : public TraceSink {
 public:
  // `batches`: ask the reader for batches. The OTF2 reader then reads on two threads at
  // once (otf2_reader.hpp) and `mtf info` takes half the time; the counting itself is
  // cheaper on single events, each counted while still in the processor's cache.
  explicit InfoCollector(Progress* progress = nullptr, bool batches = false)
      : progress_(progress), batches_(batches) {}
  void begin(const Definitions&) override {}
  void event(const Event& e) override {
    count(e);
    ++total_;
    if (progress_) progress_->tick(total_);
  }
  void events(const SharedEventBatch& batch) override {
    const Event* e = batch->events.data();
    for (size_t i = 0; i < batch->size; ++i) count(e[i]);
    const uint64_t before = total_;
    total_ += batch->size;
    if (progress_) progress_->advance(before, total_);
  }
  // A decoder's block (the .mtf reader): only the shapes and the times are read, the
  // decoder builds no event. Kinds, time span and nesting in one pass, the span in locals.
  void eventBlock(const EventBlock& block) override {
    const size_t n = block.size();
    const Tick* times = block.times();
    uint64_t* byKind = byKind_.data();
    Tick first = first_, last = last_;
    nesting_.trackBlock(block, [&](const Event& e, size_t i) {
      ++byKind[static_cast<size_t>(e.kind)];
      first = std::min(first, times[i]);
      last = std::max(last, times[i]);
    });
    first_ = first;
    last_ = last;
    const uint64_t before = total_;
    total_ += n;
    if (progress_) progress_->advance(before, total_);
  }
  bool takesEventBlocks() const override { return true; }
  void end() override { nesting_.end(); }
  bool prefersBatches() const override { return batches_; }

  // Enter/leave nesting of every location, valid after end().
  const NestingCheck& nesting() const { return nesting_; }
  uint64_t total() const { return total_; }
  uint64_t count(EventKind k) const { return byKind_[static_cast<size_t>(k)]; }
  bool empty() const { return total_ == 0; }
  Tick first() const { return first_; }
  Tick last() const { return last_; }

 private:
  void count(const Event& e) {
    nesting_.NestingCheck::event(e);  // direct call: no second virtual dispatch per event
    ++byKind_[static_cast<size_t>(e.kind)];
    if (e.time < first_) first_ = e.time;
    if (e.time > last_) last_ = e.time;
  }

  Progress* progress_;
  bool batches_;
  NestingCheck nesting_;
  std::array<uint64_t, kEventKindCount> byKind_{};
  uint64_t total_ = 0;
  Tick first_ = ~Tick{0};
  Tick last_ = 0;
};

}  // namespace mtf::cli
