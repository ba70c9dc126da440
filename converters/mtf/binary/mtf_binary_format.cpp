#include "converters/mtf/binary/mtf_binary_format.hpp"

#include "converters/mtf/binary/archive.hpp"

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
  entry.openWriter = [](const std::filesystem::path& output, const WriteOptions&) {
    return std::unique_ptr<TraceSink>(std::make_unique<mtfbin::ArchiveWriter>(output));
  };
  return entry;
}

}  // namespace mtf
