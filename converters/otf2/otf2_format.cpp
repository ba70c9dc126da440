#include "converters/otf2/otf2_format.hpp"

#include "converters/otf2/otf2_anchor.hpp"
#include "converters/otf2/otf2_reader.hpp"
#include "converters/otf2/otf2_writer.hpp"

namespace mtf {

FormatEntry otf2Format() {
  FormatEntry entry;
  entry.name = "otf2";
  entry.description = "OTF2 archive (Score-P), read and written through the OTF2 library";
  entry.extensions = {".otf2"};
  entry.sniff = [](const std::filesystem::path& input) {
    std::filesystem::path anchor;
    return otf2::tryFindAnchor(input, anchor);
  };
  entry.openReader = [](const std::filesystem::path& input, const ReadOptions& options) {
    return std::unique_ptr<TraceSource>(std::make_unique<otf2::Otf2Reader>(input, options));
  };
  entry.openWriter = [](const std::filesystem::path& output, const WriteOptions&) {
    return std::unique_ptr<TraceSink>(std::make_unique<otf2::Otf2Writer>(output));
  };
  return entry;
}

}  // namespace mtf
