#include "converters/paraver/paraver_format.hpp"

#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_writer.hpp"

namespace mtf {

FormatEntry paraverFormat() {
  FormatEntry entry;
  entry.name = "paraver";
  entry.description = "Paraver (Extrae/BSC): .prv or .prv.gz with .pcf and .row";
  entry.extensions = {".prv", ".prv.gz"};
  entry.callsOpenAtEndAreNormal = true;  // values still set when the trace ends
  entry.sniff = [](const std::filesystem::path& path) {
    return paraver::looksLikeParaver(path.string()) || paraver::isCompanionFile(path.string());
  };
  entry.openReader = [](const std::filesystem::path& path, const ReadOptions& options) {
    return std::unique_ptr<TraceSource>(
        std::make_unique<paraver::ParaverReader>(path.string(), options));
  };
  entry.openWriter = [](const std::filesystem::path& path, const WriteOptions& options) {
    WriteOptions effective = options;
    if (path.string().size() >= 3 && path.string().ends_with(".gz")) effective.compress = true;
    return std::unique_ptr<TraceSink>(std::make_unique<paraver::ParaverWriter>(path, effective));
  };
  return entry;
}

}  // namespace mtf
