#include "converters/paraver/paraver_reader.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "converters/paraver/extrae.hpp"
#include "converters/paraver/line_reader.hpp"
#include "converters/paraver/record_parser.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace mtf::paraver {

namespace {

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Each declared thread becomes a location: about 500 bytes of definitions and reader
// state, built before the first record is read. Up to 2^18 threads (about 130 MB) a header
// may declare freely; beyond, the file (compressed or not) must hold at least one byte per
// thread, so that a few header bytes cannot make mtf allocate half a gigabyte. A real trace
// has at least one record line per thread.
void checkThreadsAgainstFileSize(const Header& header, const std::string& path) {
  constexpr uint64_t kFreeThreads = uint64_t(1) << 18;
  const uint64_t threads = header.threadCount();
  if (threads <= kFreeThreads) return;
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(path, ec);
  if (ec || threads <= bytes) return;
  throw InputError(path, "line 1",
                   "bad Paraver header: " + std::to_string(threads) +
                       " threads declared in a file of " + std::to_string(bytes) +
                       " bytes (beyond " + std::to_string(kFreeThreads) +
                       " threads, the file must hold at least one byte per thread)");
}

// The first 4 KiB of a file, for recognising it.
std::string fileStart(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(4096, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

bool hasLine(std::string_view text, std::string_view line) {
  for (size_t at = text.find(line); at != std::string_view::npos; at = text.find(line, at + 1)) {
    const size_t end = at + line.size();
    if ((at == 0 || text[at - 1] == '\n') &&
        (end == text.size() || text[end] == '\n' || text[end] == '\r' || text[end] == ' '))
      return true;
  }
  return false;
}

}  // namespace

bool isCompanionFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  if (path.ends_with(".row")) return fileStart(path).starts_with("LEVEL ");
  if (!path.ends_with(".pcf")) return false;
  const std::string text = fileStart(path);
  return hasLine(text, "DEFAULT_OPTIONS") || hasLine(text, "STATES") || hasLine(text, "EVENT_TYPE");
}

std::string traceOfCompanion(const std::string& path) {
  const std::string prv = path.substr(0, path.size() - 4) + ".prv";
  std::error_code ec;
  if (!std::filesystem::exists(prv, ec) && std::filesystem::exists(prv + ".gz", ec))
    return prv + ".gz";
  return prv;
}

// Named by its .pcf or .row, a trace is read from its .prv, which must be there.
ParaverReader::ParaverReader(std::string path, const ReadOptions& options)
    : path_(std::move(path)), options_(options) {
  if (!isCompanionFile(path_)) return;
  const std::string companion = path_;
  path_ = traceOfCompanion(companion);
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec))
    throw InputError(
        companion, "",
        "its trace " + std::filesystem::path(path_).filename().string() + " is missing beside it");
}

ParaverReader::~ParaverReader() = default;

const Definitions& ParaverReader::definitions() {
  if (!loaded_) loadDefinitions();
  return defs_;
}

// Reads the header line, the communicator lines and the comments before the first record.
void ParaverReader::loadDefinitions() {
  LineReader lines(path_);
  std::string_view line;
  if (!lines.next(line))
    throw InputError(path_, "line 1", "empty file, expected a #Paraver header");
  // paraver-kernel skips a first line "new format" (older Paraver versions wrote it).
  newFormatLine_ = line == kNewFormatLine;
  if (newFormatLine_ && !lines.next(line))
    throw InputError(path_, "line 2", "no #Paraver header after 'new format'");
  const std::string headerLine(line);
  header_ = parseHeader(line, path_);
  checkThreadsAgainstFileSize(header_, path_);
  std::vector<std::string> comments;
  while (lines.next(line) && (line.empty() || line[0] == '#' || isCommunicatorLine(line))) {
    if (isCommunicatorLine(line))
      header_.communicatorLines.emplace_back(line);
    else if (!line.empty())
      comments.emplace_back(line);
  }
  if (header_.communicatorLines.size() != header_.communicatorCount)
    throw InputError(path_, placeLine(2 + header_.communicatorLines.size()),
                     "the header announces " + std::to_string(header_.communicatorCount) +
                         " communicator lines, found " +
                         std::to_string(header_.communicatorLines.size()));
  for (size_t a = 0; a < header_.applications.size(); ++a)
    if (header_.applications[a].tasks.empty())
      warnings_.push_back(path_ + ": line 1: application " + std::to_string(a + 1) +
                          " has no task; paraver-kernel refuses the header");
  bool hasPcf = false, hasRow = false;
  readCompanions(hasPcf, hasRow);
  defs_.info.format = "paraver";
  defs_.info.creator = "Paraver";
  defs_.info.version = header_.unit.empty() ? "header without time unit (microseconds)" : "";
  defs_.info.properties[kHeaderProperty] = headerLine;
  if (!header_.communicatorLines.empty())
    defs_.info.properties[kCommunicatorsProperty] = joinLines(header_.communicatorLines);
  if (!comments.empty()) defs_.info.properties[kCommentsProperty] = joinLines(comments);
  buildDefinitions({&header_, hasPcf ? &pcf_ : nullptr, hasRow ? &row_ : nullptr}, defs_, mapping_);
  // A missing companion is not an error: say so once, as the other readers do.
  for (const std::string& warning : warnings_) warn(warning);
  loaded_ = true;
}

// The .pcf and .row beside the trace, both optional.
void ParaverReader::readCompanions(bool& hasPcf, bool& hasRow) {
  std::string text;
  const std::string pcfPath = companionPath(path_, ".pcf");
  const std::string rowPath = companionPath(path_, ".row");
  hasPcf = readSmallFile(pcfPath, text);
  if (hasPcf) {
    pcf_ = parsePcf(text, pcfPath);
    defs_.info.properties[kPcfProperty] = text;
  } else {
    warnings_.push_back(pcfPath + ": no .pcf, events keep their numeric types");
  }
  hasRow = readSmallFile(rowPath, text);
  if (hasRow) {
    row_ = parseRow(text, rowPath);
    defs_.info.properties[kRowProperty] = text;
  } else {
    warnings_.push_back(rowPath + ": no .row, default names for nodes and threads");
  }
}

void ParaverReader::read(TraceSink& sink) {
  definitions();
  counts_ = {};
  LineReader lines(path_);
  std::string_view line;
  lines.next(line);  // the header, parsed by definitions()
  if (newFormatLine_) lines.next(line);
  sink.begin(defs_);
  RecordParser parser(header_, mapping_, options_, path_, counts_, sink);
  Progress progress("reading " + path_, options_.progress);
  uint64_t records = 0;
  while (lines.next(line)) {
    if (isCommunicatorLine(line)) ++counts_.communicatorLines;
    parser.line(line, lines.lineNumber());
    progress.tick(++records);
  }
  parser.finish();
  progress.finish();
  summariseProblems();
  sink.end();
}

// One warning line per kind of problem, with its count and first line: the records are
// kept (mtf reads them), but other tools skip them, or they were skipped (lenient).
void ParaverReader::summariseProblems() {
  readWarnings_.clear();
  const uint64_t declaredCpus = KernelRules(header_).totalCpus();
  for (const std::string& text : counts_.kernelRefusals.describe(declaredCpus))
    readWarnings_.push_back(path_ + ": " + text);
  // paraver-kernel ignores global operation records and refuses a body with no other.
  if (counts_.states + counts_.eventLines + counts_.communications == 0)
    readWarnings_.push_back(path_ +
                            ": no state, event or communication record; paraver-kernel refuses "
                            "a trace without records");
  for (const auto& [problem, entry] : counts_.toleratedByProblem)
    readWarnings_.push_back(path_ + ": " + std::to_string(entry.first) +
                            (entry.first == 1 ? " record skipped: " : " records skipped: ") +
                            problem + " (first at line " + std::to_string(entry.second) +
                            "); paraver-kernel reads " + (entry.first == 1 ? "it" : "them") +
                            ", but not every format mtf writes can hold " +
                            (entry.first == 1 ? "it" : "them") + " (--strict refuses)");
  for (const auto& [problem, entry] : counts_.skippedByProblem)
    readWarnings_.push_back(
        path_ + ": " + std::to_string(entry.first) + (entry.first == 1 ? " record" : " records") +
        " skipped (lenient): " + problem + " (first at line " + std::to_string(entry.second) + ")");
  for (const std::string& warning : readWarnings_) warn(warning);
}

// Only what is really dropped. Values kept as Generic events and records moved in time
// (true time in an attribute) lose nothing: inputRecords() counts them.
LossReport ParaverReader::unmodelled() const {
  LossReport report;
  if (counts_.skipped) report["Paraver bad records skipped (lenient)"] = counts_.skipped;
  if (counts_.lateComments)
    report["Paraver comment or communicator lines among the records (dropped)"] =
        counts_.lateComments;
  return report;
}

std::map<std::string, uint64_t> ParaverReader::inputRecords() const {
  return {
      {"state records", counts_.states},
      {"event records", counts_.eventLines},
      {"event type:value pairs", counts_.eventPairs},
      {"communication records", counts_.communications},
      {"global operation records", counts_.globalOps},
      {"communicator lines", counts_.communicatorLines},
      {"comment lines", counts_.comments},
      {"model events (states + pairs - collective pairs + collective ends + 2 x communications + "
       "2 x global ops)",
       counts_.modelEvents()},
      {"collective ends rebuilt from mtf's global OP pairs (MpiCollectiveEnd)",
       counts_.collectiveEnds},
      {"global OP pairs of those collective ends", counts_.collectivePairs},
      {"call exits with no open call (kept as Generic events)", counts_.unopenedLeaves},
      {"call values the .pcf does not name (kept as Generic events)", counts_.unnamedValues},
      {"records out of time order (moved, true time in attribute paraver:time)", counts_.delayed},
      {"records paraver-kernel reads that mtf skips (see the warnings)", counts_.tolerated}};
}

bool looksLikeParaver(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  GzHandle file(gzopen(path.c_str(), "rb"));
  if (!file) return false;
  char bytes[20] = {};
  const int read = gzread(file.get(), bytes, sizeof bytes);
  std::string_view start(bytes, read > 0 ? static_cast<size_t>(read) : 0);
  if (start.starts_with(kNewFormatLine)) {
    start.remove_prefix(std::string_view(kNewFormatLine).size());
    if (start.starts_with("\r")) start.remove_prefix(1);
    if (!start.starts_with("\n")) return false;
    start.remove_prefix(1);
  }
  return start.starts_with("#Paraver");
}

}  // namespace mtf::paraver
