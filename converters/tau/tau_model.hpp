// The model of a TAU trace: definitions built from the edf files and a cheap look at the
// trc files, plus the tables that turn a record's event id into a model event.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "converters/tau/tau_edf.hpp"
#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_records.hpp"
#include "model/definitions.hpp"

namespace mtf::tau {

// Location ids of TAU traces: node, context and thread packed, so they are stable
// between the per-thread set and the merged file of one trace.
inline LocationId locationIdOf(uint32_t node, uint32_t context, uint32_t thread) {
  return (LocationId{node} << 32) | (LocationId{context & 0xFFFF} << 16) | (thread & 0xFFFF);
}
inline uint32_t nodeOf(LocationId id) {
  return static_cast<uint32_t>(id >> 32);
}
inline uint32_t contextOf(LocationId id) {
  return static_cast<uint32_t>((id >> 16) & 0xFFFF);
}
inline uint32_t threadOf(LocationId id) {
  return static_cast<uint32_t>(id & 0xFFFF);
}

// Attribute names carried by Metric events made of TriggerValue records, so the writer
// restores the records exactly: the runtime writes 0, value, 0 and the three timestamps
// may differ by a microsecond or two (seen in real files).
inline constexpr const char* kAttrTriggerSingle = "tau:trigger_single";    // one record only
inline constexpr const char* kAttrValueDelay = "tau:trigger_value_delay";  // value - first 0
inline constexpr const char* kAttrEndDelay = "tau:trigger_end_delay";      // last 0 - value

// Property keys of Definitions::info.properties.
inline constexpr const char* kPropLayout = "tau.layout";               // "per-thread" or "merged"
inline constexpr const char* kPropRecordFormat = "tau.record_format";  // "24le", ...
inline constexpr const char* kPropRecords = "tau.records";             // records of all files
inline constexpr const char* kPropMergedEdf = "tau.edf";               // merged edf text
std::string nodeEdfProperty(uint32_t node);                            // "tau.edf.<node>"

// What a record of one event id becomes.
struct Translation {
  EventClass cls = EventClass::Bookkeeping;
  Ref ref = kUndefinedRef;  // region (Region) or metric class (Trigger)
  int64_t genericType = 0;  // Bookkeeping: the Generic type (canonical tracer id or raw id)
  bool defined = false;
};

// Event id -> Translation; a plain array for the small ids TAU uses (a lookup per record),
// a hash map for the rest, so that one large id in an .edf does not allocate megabytes.
class TranslationTable {
 public:
  void add(int64_t id, Translation t) {
    t.defined = true;
    if (id >= 0 && id < kDenseIds) {
      if (dense_.size() <= static_cast<size_t>(id)) dense_.resize(id + 1);
      dense_[id] = t;
    } else {
      sparse_[id] = t;
    }
  }
  const Translation* find(int64_t id) const {
    if (id >= 0 && static_cast<size_t>(id) < dense_.size())
      return dense_[id].defined ? &dense_[id] : nullptr;
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &it->second;
  }

 private:
  static constexpr int64_t kDenseIds = 1 << 14;  // tracer ids (60000+) go to the map
  std::vector<Translation> dense_;
  std::unordered_map<int64_t, Translation> sparse_;
};

struct TraceModel {
  Definitions defs;
  TraceFiles files;
  std::map<uint32_t, EdfTable> edfs;                  // by node; the merged edf under key 0
  std::map<uint32_t, TranslationTable> translations;  // same keys as edfs
  std::vector<RecordFormat> fileFormats;              // per thread file, or the merged file
  std::array<Ref, kMaxComm + 1> comms{};              // TAU communicator id -> Comm ref
  bool hasMpi = false;
  Ref attrSingle = kUndefinedRef, attrValueDelay = kUndefinedRef, attrEndDelay = kUndefinedRef;
  uint64_t totalRecords = 0;
  // Files ending in a partial record (cut while being written): "PATH: record N: ..." for
  // each, as TauReader warns (or, with --strict, refuses).
  std::vector<std::pair<std::string, std::string>> partialRecords;  // (path, what)
};

// Reads the edf files and the first and last record of every trc file (the whole merged
// file, once, to learn which threads it holds). Throws InputError on bad input.
TraceModel buildTraceModel(const TraceFiles& files);

// The EV_INIT id an edf declares, if it lists one (breaks ties when detecting layouts).
std::optional<int64_t> initEventIdOf(const EdfTable& edf);

}  // namespace mtf::tau
