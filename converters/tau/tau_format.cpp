#include "converters/tau/tau_format.hpp"

#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_reader.hpp"
#include "converters/tau/tau_writer.hpp"

namespace mtf {

FormatEntry tauFormat() {
  FormatEntry f;
  f.name = "tau";
  f.description =
      "TAU traces: a directory of tautrace.<node>.<context>.<thread>.trc + events.<node>.edf, "
      "or a merged tau.trc + tau.edf";
  f.extensions = {".tau"};
  f.sniff = [](const std::filesystem::path& p) { return tau::looksLikeTau(p); };
  f.openReader = [](const std::filesystem::path& p, const ReadOptions& o) {
    return std::unique_ptr<TraceSource>(std::make_unique<tau::TauReader>(p, o));
  };
  f.openWriter = [](const std::filesystem::path& p, const WriteOptions& o) {
    return std::unique_ptr<TraceSink>(std::make_unique<tau::TauWriter>(p, o));
  };
  return f;
}

}  // namespace mtf
