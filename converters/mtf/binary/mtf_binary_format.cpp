#include "converters/mtf/binary/mtf_binary_format.hpp"

#include "converters/mtf/binary/archive.hpp"
#include "patterns/annotate.hpp"

namespace mtf {

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
    if (!options.patterns) return std::unique_ptr<TraceSink>(std::move(writer));
    // --patterns: detection runs beside the writer and its results become the trace-wide
    // annotation "patterns" (src/patterns/analysis.hpp) through the model hook.
    mtfbin::ArchiveWriter* archive = writer.get();
    auto sink = std::make_unique<patterns::PatternAnnotationSink>(std::move(writer));
    archive->setModelHook([annotator = sink.get()](compaction::CompactModel& model) {
      model.annotations.push_back({patterns::kPatternsAnnotation, annotator->blob()});
    });
    return std::unique_ptr<TraceSink>(std::move(sink));
  };
  return entry;
}

}  // namespace mtf
