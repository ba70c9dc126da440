// The format registry (Perfetto-style): each format folder under converters/ provides
// one FormatEntry; a reader is chosen by sniffing the input's content, a writer by the
// output's name or --to. Adding a format = adding a folder and one line in registry.cpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf {

class NestingCheck;

struct WriteOptions {
  bool strict = false;         // refuse instead of dropping what the format cannot hold
  bool compress = false;       // e.g. .prv.gz
  bool merged = false;         // TAU: one merged tau.trc + tau.edf
  bool structureOnly = false;  // MTF XML without value arrays
  bool loops = true;           // MTF: store NLR loop annotations
  bool patterns = false;       // MTF: store communication patterns
  bool model = true;           // MTF: store the program-wide model (src/program)
  // Where a writer whose format has checksNesting puts the enter/leave nesting of the
  // events it was given (complete once its end() returned), so that the caller need not
  // check it a second time. Ignored by the other writers.
  NestingCheck* nesting = nullptr;
};

struct FormatEntry {
  std::string name;  // "otf2", "paraver", "tau", "mtf", "mtf-xml"
  std::string description;
  std::vector<std::string> extensions;  // output names ending so select this writer
  // True if this format can read `path` (a file or a directory), judged by content.
  std::function<bool(const std::filesystem::path&)> sniff;
  std::function<std::unique_ptr<TraceSource>(const std::filesystem::path&, const ReadOptions&)>
      openReader;  // empty if the format cannot be read
  // Writes to `path` (the staging path of a SafeOutput): the writer never commits itself.
  std::function<std::unique_ptr<TraceSink>(const std::filesystem::path&, const WriteOptions&)>
      openWriter;  // empty if the format cannot be written
  // The writer follows the enter/leave nesting anyway (MTF: compaction) and reports it
  // in WriteOptions::nesting.
  bool checksNesting = false;
  // Files of this format's own tools routinely end with calls still open (Paraver: a
  // state or event value still set at the trace's end has no record that ends it), so
  // `mtf convert` does not warn about calls never left in events recorded in it (read from
  // it, or from an archive made from it: TraceInfo::format); stray and crossed leaves still
  // warn. `mtf info` counts them whatever the format.
  bool callsOpenAtEndAreNormal = false;
};

const std::vector<FormatEntry>& formats();
const FormatEntry* formatByName(const std::string& name);
// The format whose sniff accepts `input`; throws InputError naming the path if none does.
const FormatEntry& detectInputFormat(const std::filesystem::path& input);
// The writer for `output` by extension; throws UsageError if none matches.
const FormatEntry& formatForOutput(const std::filesystem::path& output);
// Opens `input` with the reader its content calls for.
std::unique_ptr<TraceSource> openTrace(const std::filesystem::path& input, const ReadOptions& opts);

}  // namespace mtf
