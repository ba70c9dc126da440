#include "converters/mtf/binary/mtf_binary_format.hpp"

#include <optional>

#include "converters/mtf/binary/analysed_writer.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/binary/background_sink.hpp"
#include "converters/mtf/binary/stored_analyses.hpp"
#include "nlr/loop_annotation.hpp"
#include "patterns/annotate.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"

namespace mtf {

namespace {

// The loop nests stored per location (on by default) and the program-wide model
// (src/program: NLR over the communication events only), computed beside the writer. With
// both, the model's NLR runs on the communication stream derived from the stored loops'
// symbols, on the loops' thread (nlr/communication_stream.hpp: the same nests, without a
// second pass over the events); without loops, on a thread of its own.
class AnalysedArchive : public TraceSink {
 public:
  AnalysedArchive(std::unique_ptr<TraceSink> writer, bool loops, bool model)
      : loops_(loops ? std::make_unique<nlr::LoopAnnotationSink>(nullptr, model) : nullptr),
        model_(model && !loops ? std::make_unique<program::ModelAnnotationSink>(nullptr) : nullptr),
        withModel_(model),
        inner_(std::move(writer), {loops_.get(), model_.get()}) {}
  void begin(const Definitions& defs) override { inner_.begin(defs); }
  void event(const Event& e) override { inner_.event(e); }
  void events(const SharedEventBatch& batch) override { inner_.events(batch); }
  void end() override { inner_.end(); }
  LossReport losses() const override { return inner_.losses(); }
  bool prefersBatches() const override { return true; }
  const nlr::LoopAnnotationSink* loops() const { return loops_.get(); }
  // The annotation "program.model" (after end()), if asked for.
  std::optional<std::vector<uint8_t>> modelBlob() const {
    if (model_) return model_->blob();
    if (withModel_) return program::programModelBlob(loops_->communicationLoops());
    return std::nullopt;
  }

 private:
  std::unique_ptr<nlr::LoopAnnotationSink> loops_;
  std::unique_ptr<program::ModelAnnotationSink> model_;  // without loops_
  bool withModel_;
  mtfbin::WriterWithAnalyses inner_;
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
  entry.checksNesting = true;
  entry.openWriter = [](const std::filesystem::path& output, const WriteOptions& options) {
    compaction::CompactorOptions compaction;
    compaction.nesting = options.nesting;
    auto writer = std::make_unique<mtfbin::ArchiveWriter>(output, compaction);
    mtfbin::ArchiveWriter* archive = writer.get();
    // Threads: the reader's; compaction (the writer); NLR; and the value columns' coding
    // and deflate (the compactor's ChunkCompressor). Events reach the first two as shared
    // batches (BatchingSink makes them if the reader gives single events).
    std::unique_ptr<TraceSink> sink =
        std::make_unique<mtfbin::BackgroundSink>(std::move(writer), 4096, mtfbin::kQueuedBatches);
    // Loops (on by default): NLR runs beside the writer, on a thread of its own; each
    // location's loop nest becomes its annotation "nlr.loops" (src/nlr/loop_annotation.hpp)
    // through the model hook. The program-wide model (on by default, src/program) becomes
    // the trace-wide annotation "program.model".
    const nlr::LoopAnnotationSink* loops = nullptr;
    const AnalysedArchive* analyses = nullptr;
    if (options.loops || options.model) {
      auto annotated =
          std::make_unique<AnalysedArchive>(std::move(sink), options.loops, options.model);
      loops = annotated->loops();
      analyses = annotated.get();
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
    sink = std::make_unique<mtfbin::BatchingSink>(std::move(sink));
    // Loops and model are stored only where they summarise the events (stored_analyses.hpp).
    archive->setModelHook([loops, annotator, analyses](compaction::CompactModel& model) {
      if (loops) {
        mtfbin::attachLoopNests(*loops, model);
        mtfbin::markLeftOutLoopNests(model);
      }
      if (annotator)
        model.annotations.push_back({patterns::kPatternsAnnotation, annotator->blob()});
      if (analyses)
        if (std::optional<std::vector<uint8_t>> blob = analyses->modelBlob())
          if (mtfbin::storesProgramModel(blob->size(), model))
            model.annotations.push_back({program::kModelAnnotationName, std::move(*blob)});
    });
    return sink;
  };
  return entry;
}

}  // namespace mtf
