// Internals of the public API (include/mtf/): the Trace's hidden state and the helpers
// its parts share. Nothing here is installed.
#pragma once

#include <memory>
#include <new>
#include <string>

#include "model/definitions.hpp"
#include "model/trace_stream.hpp"
#include "mtf/trace.hpp"
#include "util/error.hpp"

namespace mtf::mtfbin {
class ArchiveReader;
}

namespace mtf::api {

struct Trace::Impl {
  std::string path;
  std::string format;
  ReadOptions read;
  std::unique_ptr<TraceSource> definitionSource;  // opened by definitions(), kept for them
  std::optional<Definitions> definitions;
  // An .mtf archive's reader (its model read) opened by eventCount(), taken by the next
  // eventRowsOnThreads(): the model is read once, and the rows are those counted.
  std::shared_ptr<mtfbin::ArchiveReader> countedReader;

  std::unique_ptr<TraceSource> openSource() const;
  const mtf::Definitions& internalDefinitions();
  // Streams the events `filter` selects (on .mtf and OTF2 only the asked locations and
  // chunks are read) into `sink`, which filters them itself.
  void readSelected(const EventFilter& filter, TraceSink& sink) const;
};

// The public form of the internal definitions.
Definitions publicDefinitions(const mtf::Definitions& defs);

// Runs `f`, turning the internal errors into the public Error (same code and message).
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const mtf::Error& e) {
    throw Error(static_cast<int>(e.code()), e.what());
  }
}

}  // namespace mtf::api
