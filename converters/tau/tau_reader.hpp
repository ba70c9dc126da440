// Reads a TAU trace (per-thread set or merged pair) into the model, streaming records.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "converters/tau/tau_model.hpp"
#include "model/trace_stream.hpp"

namespace mtf::tau {

class TauReader : public TraceSource {
 public:
  TauReader(const std::filesystem::path& input, const ReadOptions& options);
  const Definitions& definitions() override;
  void read(TraceSink& sink) override;
  // A per-thread set streams file after file; the merged file interleaves threads by time.
  EventOrder order() const override;
  LossReport unmodelled() const override { return unmodelled_; }
  // Records consumed by the last read() (every record of every file).
  uint64_t recordsRead() const { return recordsRead_; }
  // Records by what they are, so `mtf info` shows every record of every file was seen.
  std::map<std::string, uint64_t> inputRecords() const override;
  // A per-thread set reads only the files of `ids`; a merged file cannot (false).
  bool restrictToLocations(const std::vector<LocationId>& ids) override;
  // A per-thread set: each thread file's records (its size over the record size).
  std::map<LocationId, uint64_t> eventEstimates() override;

 private:
  void readThreadFile(size_t index, class RecordMapper& mapper);
  bool isSelected(const ThreadFile& t) const;
  void readMergedFile(class RecordMapper& mapper);
  bool acceptRecord(const std::filesystem::path& file, uint64_t index, const Record& r,
                    uint64_t& lastTime, const Translation*& translation,
                    const TranslationTable& table);
  void skipOrThrow(const std::filesystem::path& file, uint64_t index, const std::string& what,
                   const std::string& lossKey);

  std::filesystem::path input_;
  ReadOptions options_;
  TraceFiles files_;
  std::optional<TraceModel> model_;
  LossReport unmodelled_;
  uint64_t recordsRead_ = 0;
  uint64_t recordsOfClass_[5] = {};  // by EventClass
  struct {
    uint64_t count = 0;
    std::string first;  // "FILE: record N"
  } backwards_;         // records whose timestamp goes back in their thread: skipped
  uint64_t triplets_ = 0;
  std::optional<std::vector<LocationId>> selected_;  // restrictToLocations
};

}  // namespace mtf::tau
