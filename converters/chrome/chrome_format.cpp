#include "converters/chrome/chrome_format.hpp"

#include "converters/chrome/chrome_writer.hpp"

namespace mtf {

FormatEntry chromeFormat() {
  FormatEntry f;
  f.name = "chrome";
  f.description =
      "Chrome's Trace Event Format (JSON, .json or .json.gz) for Perfetto UI, chrome://tracing "
      "and Chrome DevTools; write only";
  f.extensions = {".json", ".json.gz"};
  f.openWriter = [](const std::filesystem::path& p, const WriteOptions& o) {
    return std::unique_ptr<TraceSink>(std::make_unique<chrome::ChromeWriter>(p, o));
  };
  return f;
}

}  // namespace mtf
