// Reads a Paraver trace (.prv or .prv.gz, with optional .pcf and .row) as a stream of
// model events, in the file's order (events of different locations interleaved).
//
// Records to events (the relation `mtf info` shows and the tests check):
//   state record            -> 1 State event
//   event record            -> 1 event per type:value pair (Enter, Leave, Metric or Generic)
//   communication record    -> 2 events: MpiSend on the sender, MpiRecv on the receiver
//   global operation (4:)   -> 2 events: MpiCollectiveBegin + MpiCollectiveEnd
//   in a trace mtf wrote (collectives.hpp): the 4 or 5 pairs of a collective's end
//                           -> 1 event: MpiCollectiveEnd
// so events = states + pairs - collective pairs + collective ends + 2 * communications
//           + 2 * global operations.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "converters/paraver/header.hpp"
#include "converters/paraver/kernel_rules.hpp"
#include "converters/paraver/model_mapping.hpp"
#include "converters/paraver/pcf.hpp"
#include "model/trace_stream.hpp"

namespace mtf::paraver {

struct RecordCounts {
  uint64_t states = 0;
  uint64_t eventLines = 0;
  uint64_t eventPairs = 0;
  uint64_t communications = 0;
  uint64_t globalOps = 0;
  uint64_t collectiveEnds = 0;   // MpiCollectiveEnd rebuilt from mtf's pairs
  uint64_t collectivePairs = 0;  // the pairs they took
  uint64_t communicatorLines = 0;
  uint64_t comments = 0;
  uint64_t skipped = 0;         // bad records skipped in lenient mode
  uint64_t lateComments = 0;    // comment lines after the first record (not kept)
  uint64_t unopenedLeaves = 0;  // value 0 with no call open: kept as Generic
  uint64_t unnamedValues = 0;   // call/function values the .pcf does not name: Generic
  uint64_t delayed = 0;         // events moved later to keep their location in order
  // Bad records skipped in lenient mode, by problem: (count, first line).
  std::map<std::string, std::pair<uint64_t, uint64_t>> skippedByProblem;
  // Records paraver-kernel reads but mtf cannot keep as they are (converters/paraver/
  // REFUSALS.md), skipped in every mode, by problem: (count, first line).
  uint64_t tolerated = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> toleratedByProblem;
  // Records read (and kept) that paraver-kernel would skip.
  RefusalTally kernelRefusals;
  uint64_t modelEvents() const {
    return states + eventPairs - collectivePairs + collectiveEnds + 2 * communications +
           2 * globalOps;
  }
};

class ParaverReader : public TraceSource {
 public:
  ParaverReader(std::string path, const ReadOptions& options);
  ~ParaverReader() override;
  const Definitions& definitions() override;
  void read(TraceSink& sink) override;
  EventOrder order() const override { return EventOrder::ByTime; }
  LossReport unmodelled() const override;
  std::map<std::string, uint64_t> inputRecords() const override;
  const RecordCounts& counts() const { return counts_; }
  // Warnings gathered while opening (a missing .pcf or .row).
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Warnings gathered while reading, one line per kind of problem with its count:
  // records paraver-kernel would skip, bad records skipped in lenient mode.
  const std::vector<std::string>& readWarnings() const { return readWarnings_; }

 private:
  void loadDefinitions();
  void readCompanions(bool& hasPcf, bool& hasRow);
  void summariseProblems();
  std::string path_;
  ReadOptions options_;
  bool loaded_ = false;
  bool newFormatLine_ = false;  // a first line "new format" before the header
  Header header_;
  Pcf pcf_;
  Row row_;
  Definitions defs_;
  ModelMapping mapping_;
  RecordCounts counts_;
  std::vector<std::string> warnings_;
  std::vector<std::string> readWarnings_;
};

// A first line paraver-kernel skips before the header.
inline constexpr const char* kNewFormatLine = "new format";

// True if the file (plain or gzip) starts with "#Paraver" (after a line "new format").
bool looksLikeParaver(const std::string& path);
// True if `path` is a .pcf (a line DEFAULT_OPTIONS, STATES or EVENT_TYPE in its first
// 4 KiB) or a .row (starting "LEVEL "): the trace is recognised by them too, and the
// reader then reads the .prv beside them or says it is missing.
bool isCompanionFile(const std::string& path);
// The .prv a .pcf or .row belongs to (its .prv.gz if only that exists).
std::string traceOfCompanion(const std::string& path);

}  // namespace mtf::paraver
