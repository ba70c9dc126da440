// mtf public API: open a trace of any format mtf reads (the format is found by content:
// OTF2, Paraver, TAU, .mtf, .mtf.xml) and ask it for what you need. Nothing is read before
// it is asked for: definitions() reads the definitions only; events() streams the events
// (one location or a time window of an .mtf archive reads only those chunks); info(),
// stats(), loops() and patterns() stream the trace once each, in memory that grows with
// the result, not with the number of events.
//
//   mtf::api::Trace trace = mtf::api::Trace::open("traces.otf2");
//   for (const auto& l : trace.definitions().locations) ...
//   trace.events([](const mtf::api::Event& e) { ... });
//
// Errors are thrown as mtf::api::Error, whose message names the file and the place.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "mtf/analysis.hpp"
#include "mtf/definitions.hpp"
#include "mtf/event.hpp"

namespace mtf::api {

class Error : public std::runtime_error {
 public:
  // code: 1 usage (bad argument), 2 bad input (corrupt, unknown format), 3 I/O failure;
  // the exit statuses of the `mtf` program.
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

struct OpenOptions {
  bool lenient = false;  // skip bad records (counted in Info::unmodelled) instead of failing
};

using EventCallback = std::function<void(const Event&)>;
using EventRowsCallback = std::function<void(const EventRows&)>;
// A block of rows and the place of its first row among all the rows (eventRowsOnThreads).
using PlacedEventRowsCallback = std::function<void(uint64_t firstRow, const EventRows&)>;

class Trace {
 public:
  // Finds the format by content and reads nothing else yet.
  static Trace open(const std::string& path, const OpenOptions& options = {});
  Trace(Trace&&) noexcept;
  Trace& operator=(Trace&&) noexcept;
  ~Trace();

  const std::string& path() const;
  const std::string& format() const;  // "otf2", "paraver", "tau", "mtf", "mtf-xml"
  // Read once, on first use.
  const Definitions& definitions();
  // Calls `callback` for every event the filter selects: each location's events in time
  // order; locations may follow each other or interleave (as the format stores them).
  void events(const EventCallback& callback, const EventFilter& filter = {});
  // The same events, in the same order, as columns: `callback` gets blocks of up to
  // 4,096 rows (one call per block, not per event: the fast way to fill arrays).
  void eventRows(const EventRowsCallback& callback, const EventFilter& filter = {});
  // An upper bound hint of the number of events (the archive's or the definitions'
  // declared counts), 0 if unknown. For preallocation only: never trusted for more.
  uint64_t eventCountHint();
  // The exact number of events events(filter) hands, if the trace knows it before they
  // are read (an .mtf archive without a time window: its index), otherwise nullopt.
  std::optional<uint64_t> eventCount(const EventFilter& filter = {});
  // The rows of eventRows(filter), `callback(firstRow, rows)` getting each block with the
  // place of its first row in eventRows()' order (the block is rows [firstRow, firstRow +
  // rows.count)). Where eventCount(filter) is known and the trace has several locations,
  // whole locations are read on up to `threads` threads at once (0: one per core, at most
  // 4), each calling `callback` for its own rows: fill arrays of eventCount(filter) rows,
  // each block into its own place. Otherwise on the calling thread alone, in order.
  void eventRowsOnThreads(const PlacedEventRowsCallback& callback, const EventFilter& filter = {},
                          size_t threads = 0);

  Info info();
  Stats stats();
  // The compacted structure; an .mtf answers from its structure chunk (no value chunk
  // read), any other format is compacted in memory (values counted, not kept).
  Dag dag();
  // Loops of every location (or only `location`), as `mtf loops` finds them: MPI messages
  // and collectives only. An .mtf (or .mtf.xml) with stored loops answers from them
  // without reading an event; those stand for every event (calls included), as `mtf
  // loops` prints them on such a file.
  std::vector<LocationLoops> loops(std::optional<LocationId> location = std::nullopt);
  Patterns patterns();

 private:
  struct Impl;
  explicit Trace(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What convert() keeps, as `mtf convert`'s options of the same names (README): empty
// keeps everything. Unknown ranks or locations: Error code 2, nothing written.
struct ConvertSelection {
  std::string ranks;                        // "0-15,32" or process names
  std::string locations;                    // location ids or names
  std::vector<std::string> regions;         // globs ("MPI_*"), each may hold several (commas)
  std::vector<std::string> excludeRegions;  // globs
  bool regionContents = false;  // the region filters take what lies inside a call with it
  std::string kinds;            // event kinds ("Enter,MpiSend")
  std::string excludeKinds;
};

struct ConvertOptions {
  std::string to;           // output format by name; empty: by the output's name (.otf2, .mtf, ...)
  bool strict = false;      // refuse (Error code 2, nothing written) if anything would be dropped
  bool force = false;       // replace an existing output
  bool loops = true;        // .mtf: store loop nests
  bool patterns = false;    // .mtf: store communication patterns
  ConvertSelection select;  // applied first: the cut below cuts the selected trace
  // A cut while streaming, as `mtf convert` makes it: a time window (`begin`, `end` in
  // the forms of `mtf convert --begin`: "1.25", "800ms", "123456t", "+2.5s"; empty: the
  // trace's start or end; `shiftTimes`: times start at 0 at `begin`), or iterations "A-B"
  // of the loop `construct` of the program model (`mtf model --positions`).
  std::string begin, end;
  bool shiftTimes = false;
  std::string construct, iterations;
};

struct ConvertResult {
  uint64_t events = 0;
  std::map<std::string, uint64_t> dropped;  // what the output format could not hold
  // What the selection lost: message events whose partner it dropped, collective roots
  // it did not keep (never refused by `strict`: the selection asked for it).
  std::map<std::string, uint64_t> selectionLost;
  // What a cut could not keep whole (messages whose partner lies outside it, collectives
  // still open at its end), counted on the selected trace.
  std::map<std::string, uint64_t> cut;
};

// `mtf convert`: writes `input` as `output` atomically (nothing is left on failure).
ConvertResult convert(const std::string& input, const std::string& output,
                      const ConvertOptions& options = {});

// The version of the library, "MAJOR.MINOR.PATCH".
const char* version();

}  // namespace mtf::api
