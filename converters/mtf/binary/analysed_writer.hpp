// The archive writer's pipeline around compaction: BatchingSink hands whole event
// batches on, WriterWithAnalyses runs analyses (NLR for the loops and the program model)
// each on a thread of its own beside the writer. Used by the `mtf` format's writer and by
// mtf-mpi, whose processes compact and analyse their share the same way.
#pragma once

#include <memory>
#include <vector>

#include "compaction/compact_model.hpp"
#include "converters/mtf/binary/background_sink.hpp"
#include "model/event_batch.hpp"
#include "model/trace_stream.hpp"
#include "nlr/loop_annotation.hpp"

namespace mtf::mtfbin {

// The queues in front of the compaction and NLR threads hold 16 x 4096 events each. With
// 8, the threads more often found their queue empty (or the readers found it full) and
// slept: on the 2-core machine, about 15% of the cores' time went idle during a conversion
// of the 14 M-event wavefront, 9 to 12% with 16 (0.87 s instead of 0.92 s). About 9 MB
// more of events in flight per queue.
inline constexpr size_t kQueuedBatches = 16;

// Gives the sinks below whole batches even when the reader hands on single events
// (Paraver, TAU, MTF): each event is copied once here, not once per thread below.
class BatchingSink : public TraceSink {
 public:
  explicit BatchingSink(std::unique_ptr<TraceSink> inner)
      : inner_(std::move(inner)),
        batcher_([this](const SharedEventBatch& batch) { inner_->events(batch); }) {}
  void begin(const Definitions& defs) override { inner_->begin(defs); }
  void event(const Event& e) override { batcher_.add(e); }
  void events(const SharedEventBatch& batch) override {
    batcher_.flush();  // single events given before this batch go first
    inner_->events(batch);
  }
  void end() override {
    batcher_.flush();
    inner_->end();
  }
  LossReport losses() const override { return inner_->losses(); }
  bool prefersBatches() const override { return true; }

 private:
  std::unique_ptr<TraceSink> inner_;
  EventBatcher batcher_;
};

// The writer with analyses beside it, each on a thread of its own behind its own queue
// (NLR costs about as much as compaction). Events go to the writer and to those threads;
// end() finishes the analyses first, since the writer's end asks for their results. The
// analyses are owned by the caller and must outlive this sink.
class WriterWithAnalyses : public TraceSink {
 public:
  // `queuedBatches`: the depth of each analysis's queue (kQueuedBatches by default).
  WriterWithAnalyses(std::unique_ptr<TraceSink> writer, const std::vector<TraceSink*>& analyses,
                     size_t queuedBatches = kQueuedBatches)
      : writer_(std::move(writer)), tee_(backgrounds(analyses, queuedBatches)) {}
  void begin(const Definitions& defs) override {
    tee_.begin(defs);
    writer_->begin(defs);
  }
  void event(const Event& e) override {
    tee_.event(e);
    writer_->event(e);
  }
  void events(const SharedEventBatch& batch) override {
    tee_.events(batch);  // queued as it is, not copied
    writer_->events(batch);
  }
  void end() override {
    tee_.end();
    writer_->end();
  }
  LossReport losses() const override { return writer_->losses(); }
  bool prefersBatches() const override { return true; }

 private:
  std::vector<TraceSink*> backgrounds(const std::vector<TraceSink*>& analyses,
                                      size_t queuedBatches) {
    std::vector<TraceSink*> sinks;
    for (TraceSink* analysis : analyses) {
      if (!analysis) continue;
      threads_.push_back(std::make_unique<BackgroundSink>(*analysis, 4096, queuedBatches));
      sinks.push_back(threads_.back().get());
    }
    return sinks;
  }

  std::unique_ptr<TraceSink> writer_;
  std::vector<std::unique_ptr<BackgroundSink>> threads_;
  TeeSink tee_;
};

}  // namespace mtf::mtfbin
