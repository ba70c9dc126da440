#include "converters/tau/tau_reader.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_map>

#include "converters/tau/tau_mapper.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {

TauReader::TauReader(const fs::path& input, const ReadOptions& options)
    : input_(input), options_(options), files_(locateTrace(input)) {}

const Definitions& TauReader::definitions() {
  if (model_) return model_->defs;
  model_.emplace(buildTraceModel(files_));
  // TAU's reader (TAU_tf) stops at a partial record and reads the file as if it ended
  // there; so does mtf, saying so (refused with --strict).
  for (const auto& [path, what] : model_->partialRecords) {
    if (options_.strict) throw InputError(path, "", what + " (--strict refuses it)");
    warn(path + ": " + what + ": the records before it are read, as TAU's reader reads them");
  }
  return model_->defs;
}

EventOrder TauReader::order() const {
  return files_.merged ? EventOrder::ByTime : EventOrder::ByLocation;
}

void TauReader::skipOrThrow(const fs::path& file, uint64_t index, const std::string& what,
                            const std::string& lossKey) {
  if (!options_.lenient) throw InputError(file.string(), placeRecord(index), what);
  ++unmodelled_[lossKey];
}

// Checks one record; false if it is skipped (lenient mode).
bool TauReader::acceptRecord(const fs::path& file, uint64_t index, const Record& r,
                             uint64_t& lastTime, const Translation*& translation,
                             const TranslationTable& table) {
  const Translation* found = table.find(r.event);
  if (!found) {
    skipOrThrow(file, index, "unknown event id " + std::to_string(r.event) + " (not in the edf)",
                "TAU records with an unknown event id (skipped)");
    return false;
  }
  if (r.time < lastTime) {  // TAU's reader reads it; a thread's events stay in time order
    const std::string what = "timestamp " + std::to_string(r.time) + " before the previous " +
                             std::to_string(lastTime) + " of the same thread";
    if (options_.strict) throw InputError(file.string(), placeRecord(index), what);
    if (backwards_.count++ == 0) backwards_.first = file.string() + ": " + placeRecord(index);
    return false;
  }
  lastTime = r.time;
  translation = found;
  ++recordsOfClass_[static_cast<size_t>(found->cls)];
  return true;
}

void TauReader::readThreadFile(size_t index, RecordMapper& mapper) {
  const ThreadFile& t = files_.threads[index];
  RecordReader reader(t.path, std::nullopt, model_->fileFormats[index]);
  const TranslationTable& table = model_->translations.at(t.node);
  const LocationId location = locationIdOf(t.node, t.context, t.thread);
  Progress progress("reading " + t.path.filename().string(), options_.progress);
  uint64_t lastTime = 0;
  Record r;
  const Translation* translation = nullptr;
  while (reader.next(r)) {
    ++recordsRead_;
    progress.tick(reader.index());
    if (!acceptRecord(t.path, reader.index() - 1, r, lastTime, translation, table)) continue;
    // The file name decides the location; TAU writes the same node and thread in records.
    if (r.node != (t.node & 0xFFFF) || r.thread != (t.thread & 0xFFFF))
      ++unmodelled_["TAU records whose node/thread differ from their file name (file name kept)"];
    mapper.push(*translation, location, r);
  }
  mapper.finish();
  progress.finish();
}

void TauReader::readMergedFile(RecordMapper& mapper) {
  RecordReader reader(files_.mergedTrc, std::nullopt, model_->fileFormats.front());
  const TranslationTable& table = model_->translations.at(0);
  std::unordered_map<LocationId, uint64_t> lastTime;
  Progress progress("reading " + files_.mergedTrc.filename().string(), options_.progress);
  Record r;
  const Translation* translation = nullptr;
  while (reader.next(r)) {
    ++recordsRead_;
    progress.tick(reader.index());
    const LocationId location = locationIdOf(r.node, 0, r.thread);
    if (!acceptRecord(files_.mergedTrc, reader.index() - 1, r, lastTime[location], translation,
                      table))
      continue;
    mapper.push(*translation, location, r);
  }
  mapper.finish();
  progress.finish();
}

bool TauReader::restrictToLocations(const std::vector<LocationId>& ids) {
  if (files_.merged) return false;
  selected_ = ids;
  return true;
}

bool TauReader::isSelected(const ThreadFile& t) const {
  if (!selected_) return true;
  const LocationId id = locationIdOf(t.node, t.context, t.thread);
  return std::find(selected_->begin(), selected_->end(), id) != selected_->end();
}

std::map<LocationId, uint64_t> TauReader::eventEstimates() {
  std::map<LocationId, uint64_t> records;
  if (files_.merged) return records;
  definitions();  // the record formats
  for (size_t i = 0; i < files_.threads.size(); ++i) {
    const ThreadFile& t = files_.threads[i];
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(t.path, error);
    const uint32_t recordBytes = std::max<uint32_t>(1, model_->fileFormats[i].size);
    if (!error) records[locationIdOf(t.node, t.context, t.thread)] = size / recordBytes;
  }
  return records;
}

void TauReader::read(TraceSink& sink) {
  definitions();
  recordsRead_ = 0;
  std::fill(std::begin(recordsOfClass_), std::end(recordsOfClass_), 0);
  unmodelled_.clear();
  backwards_ = {};
  sink.begin(model_->defs);
  RecordMapper mapper(*model_, sink);
  if (files_.merged) {
    readMergedFile(mapper);
  } else {
    for (size_t i = 0; i < files_.threads.size(); ++i)
      if (isSelected(files_.threads[i])) readThreadFile(i, mapper);
  }
  triplets_ = mapper.tripletsCollapsed();
  if (backwards_.count)
    warn(std::to_string(backwards_.count) +
         " TAU records skipped: timestamp before the previous "
         "one of its thread (first at " +
         backwards_.first +
         "); TAU's reader reads them, but a thread's events stay in time order (--strict "
         "refuses)");
  sink.end();
}

std::map<std::string, uint64_t> TauReader::inputRecords() const {
  const auto of = [this](EventClass c) { return recordsOfClass_[static_cast<size_t>(c)]; };
  return {{"records going back in time (skipped, see the warning)", backwards_.count},
          {"trc files", files_.merged ? 1 : files_.threads.size()},
          {"records (all trc files)", recordsRead_},
          {"EntryExit records", of(EventClass::Region)},
          {"TriggerValue records", of(EventClass::Trigger)},
          {"TriggerValue triplets (one Metric each)", triplets_},
          {"MESSAGE_SEND records", of(EventClass::Send)},
          {"MESSAGE_RECV records", of(EventClass::Recv)},
          {"tracer records (Generic)", of(EventClass::Bookkeeping)}};
}

}  // namespace mtf::tau
