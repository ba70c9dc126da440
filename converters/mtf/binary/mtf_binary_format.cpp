#include "converters/mtf/binary/mtf_binary_format.hpp"

#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/binary/background_sink.hpp"
#include "nlr/loop_annotation.hpp"
#include "patterns/annotate.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"

namespace mtf {

namespace {

// The queues in front of the compaction and NLR threads hold 16 x 4096 events each. With
// 8, the threads more often found their queue empty (or the readers found it full) and
// slept: on the 2-core machine, about 15% of the cores' time went idle during a conversion
// of the 14 M-event wavefront, 9 to 12% with 16 (0.87 s instead of 0.92 s). About 9 MB
// more of events in flight per queue.
constexpr size_t kQueuedBatches = 16;

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

// The archive writer with its analyses beside it on a second thread (NLR costs about as
// much as compaction): the loop nests stored per location (on by default) and the
// program-wide model (src/program, its own NLR over communication events only). Events go
// to the writer and to that thread; end() finishes the analyses first, since the writer's
// end asks for their results.
class WriterWithAnalyses : public TraceSink {
 public:
  WriterWithAnalyses(std::unique_ptr<TraceSink> writer, bool loops, bool model)
      : writer_(std::move(writer)),
        loops_(loops ? std::make_unique<nlr::LoopAnnotationSink>(nullptr) : nullptr),
        model_(model ? std::make_unique<program::ModelAnnotationSink>(nullptr) : nullptr),
        tee_(backgrounds()) {}
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
  const nlr::LoopAnnotationSink* loops() const { return loops_.get(); }
  const program::ModelAnnotationSink* model() const { return model_.get(); }

 private:
  // One thread per analysis, each behind its own queue.
  std::vector<TraceSink*> backgrounds() {
    std::vector<TraceSink*> sinks;
    for (TraceSink* analysis :
         {static_cast<TraceSink*>(loops_.get()), static_cast<TraceSink*>(model_.get())}) {
      if (!analysis) continue;
      threads_.push_back(std::make_unique<mtfbin::BackgroundSink>(*analysis, 4096, kQueuedBatches));
      sinks.push_back(threads_.back().get());
    }
    return sinks;
  }

  std::unique_ptr<TraceSink> writer_;
  std::unique_ptr<nlr::LoopAnnotationSink> loops_;
  std::unique_ptr<program::ModelAnnotationSink> model_;
  std::vector<std::unique_ptr<mtfbin::BackgroundSink>> threads_;
  TeeSink tee_;
};

}  // namespace

FormatEntry mtfBinaryFormat() {
  FormatEntry entry;
  entry.name = "mtf";
  entry.description = "MTF binary archive: compacted DAG + compressed value columns, indexed";
  entry.extensions = {".mtf"};
  entry.sniff = [](const std::filesystem::path& input) {
    return mtfbin::looksLikeMtfBinary(input);
  };
  entry.openReader = [](const std::filesystem::path& input, const ReadOptions& options) {
    return std::unique_ptr<TraceSource>(std::make_unique<mtfbin::ArchiveSource>(input, options));
  };
  entry.openWriter = [](const std::filesystem::path& output, const WriteOptions& options) {
    auto writer = std::make_unique<mtfbin::ArchiveWriter>(output);
    mtfbin::ArchiveWriter* archive = writer.get();
    // Threads: the reader's; compaction (the writer); NLR; and the value columns' coding
    // and deflate (the compactor's ChunkCompressor). Events reach the first two as shared
    // batches (BatchingSink makes them if the reader gives single events).
    std::unique_ptr<TraceSink> sink =
        std::make_unique<mtfbin::BackgroundSink>(std::move(writer), 4096, kQueuedBatches);
    // Loops (on by default): NLR runs beside the writer, on a thread of its own; each
    // location's loop nest becomes its annotation "nlr.loops" (src/nlr/loop_annotation.hpp)
    // through the model hook. The program-wide model (on by default, src/program) runs on
    // the same thread and becomes the trace-wide annotation "program.model".
    const nlr::LoopAnnotationSink* loops = nullptr;
    const program::ModelAnnotationSink* programModel = nullptr;
    if (options.loops || options.model) {
      auto annotated =
          std::make_unique<WriterWithAnalyses>(std::move(sink), options.loops, options.model);
      loops = annotated->loops();
      programModel = annotated->model();
      sink = std::move(annotated);
    }
    // --patterns: detection runs beside the writer and its results become the trace-wide
    // annotation "patterns" (src/patterns/analysis.hpp) through the model hook.
    patterns::PatternAnnotationSink* annotator = nullptr;
    if (options.patterns) {
      auto annotated = std::make_unique<patterns::PatternAnnotationSink>(std::move(sink));
      annotator = annotated.get();
      sink = std::move(annotated);
    }
    sink = std::make_unique<BatchingSink>(std::move(sink));
    archive->setModelHook([loops, annotator, programModel](compaction::CompactModel& model) {
      if (loops) {
        for (auto& [location, blob] : loops->blobs())
          if (compaction::LocationModel* l = model.findLocation(location))
            l->annotations.push_back({nlr::kLoopAnnotationName, {blob.begin(), blob.end()}});
      }
      if (annotator)
        model.annotations.push_back({patterns::kPatternsAnnotation, annotator->blob()});
      if (programModel)
        model.annotations.push_back({program::kModelAnnotationName, programModel->blob()});
    });
    return sink;
  };
  return entry;
}

}  // namespace mtf
