// Writes a trace as TAU files into a directory: tautrace.<node>.<context>.<thread>.trc
// plus events.<node>.edf, or (WriteOptions::merged) one tau.trc + tau.edf.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "converters/tau/tau_edf_out.hpp"
#include "converters/tau/tau_records.hpp"
#include "model/mpi_ranks.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"
#include "registry/registry.hpp"

namespace mtf::tau {

class TauWriter : public TraceSink {
 public:
  TauWriter(const std::filesystem::path& directory, const WriteOptions& options);
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  LossReport losses() const override;

 private:
  struct Place {
    uint32_t node = 0, context = 0, thread = 0;
  };
  // A message's partner and communicator as TAU numbers them (partnerOf).
  struct Partner {
    Ref comm = kUndefinedRef;
    uint64_t rank = UINT64_MAX;  // in comm
    uint32_t node = 0;           // TAU's partner
    bool placed = false;         // the rank has a location (else node = rank)
    bool commKnown = false;
    uint32_t tauComm = 0;  // before clamping to kMaxComm
  };
  static constexpr int64_t kNoId = INT64_MIN;
  struct Stream {
    Place place;
    // The last ones seen, by rank % 16: a 2-D stencil's four neighbours r-1, r+1, r-w,
    // r+w fall in four slots unless w is a multiple of 8 (by rank % 4, r-4 and r+4 of a
    // 4-wide grid took the same slot and were looked up again at every message).
    std::array<Partner, 16> partners;
    std::unique_ptr<RecordAppender> out;
    bool started = false;
    bool synthesized = false;  // bookkeeping records added by this writer
    uint64_t lastTime = 0;
    EdfOut* edf = nullptr;                   // edfOf(place.node), looked up once
    std::vector<int64_t> regionIds;          // by region ref: its edf id, or kNoId (regionId)
    int64_t messageIds[2] = {kNoId, kNoId};  // MESSAGE_RECV's and MESSAGE_SEND's edf ids
  };
  struct MetricInfo {
    std::vector<Ref> members;
  };

  void placeLocations(const Definitions& defs);
  void collectEntities(const Definitions& defs);
  void numberComms(const Definitions& defs);
  Stream* streamOf(LocationId location);
  EdfOut& edfOf(uint32_t node);
  EdfOut& edfOf(Stream& s);
  // `t` in microseconds, rounded (counted in roundedTimes_); nanoseconds inline.
  uint64_t micros(Tick t) {
    if (!nanoseconds_) return anyMicros(t);
    const uint64_t rest = t % 1000;
    roundedTimes_ += rest != 0;
    return t / 1000 + (rest >= 500 ? 1 : 0);
  }
  uint64_t anyMicros(Tick t);
  // The edf id of `region` in the stream's node, remembered per stream for small refs;
  // false if the region is undefined. Inline: once per Enter and Leave.
  bool regionId(Stream& s, Ref region, int64_t& id) {
    if (region < s.regionIds.size() && s.regionIds[region] != kNoId) {
      id = s.regionIds[region];
      return true;
    }
    return firstRegionId(s, region, id);
  }
  bool firstRegionId(Stream& s, Ref region, int64_t& id);
  void put(Stream& s, int64_t event, int64_t par, uint64_t time) {
    s.out->append(Record{event, static_cast<uint16_t>(s.place.node),
                         static_cast<uint16_t>(s.place.thread), par, time});
    s.lastTime = time;
  }
  void start(Stream& s, const Event& e, uint64_t time);
  void writeMetric(Stream& s, const Event& e, uint64_t time);
  void writeMessage(Stream& s, const Event& e, uint64_t time);
  const Partner& partnerOf(Stream& s, Ref comm, uint64_t rank, LocationId location);
  void writeGeneric(Stream& s, const Event& e, uint64_t time);
  int64_t metricValue(uint8_t type, uint64_t bits);
  uint64_t attribute(const Event& e, Ref attr) const;
  void writeEdfs();
  void lose(const std::string& what, uint64_t n = 1) { losses_[what] += n; }

  std::filesystem::path directory_;
  std::filesystem::path threadDirectory_;  // the output itself, or a scratch dir (merged)
  WriteOptions options_;
  const Definitions* defs_ = nullptr;
  RecordFormat format_;
  bool tauOrigin_ = false;
  bool nanoseconds_ = false;  // the clock counts nanoseconds (micros)
  std::unordered_map<LocationId, Stream> streams_;
  LocationId lastLocation_ = 0;
  Stream* lastStream_ = nullptr;     // streamOf(lastLocation_)
  std::map<uint32_t, EdfOut> edfs_;  // by node; the merged edf under key 0
  std::unordered_map<Ref, EdfIdentity> regions_;
  std::unordered_map<Ref, EdfIdentity> members_;
  std::unordered_map<Ref, MetricInfo> metrics_;
  std::unordered_map<Ref, uint32_t> tauCommOf_;
  std::optional<RankMap> ranks_;
  Ref attrSingle_ = kUndefinedRef, attrValueDelay_ = kUndefinedRef, attrEndDelay_ = kUndefinedRef;
  LossReport losses_;
  uint64_t roundedTimes_ = 0, nonBlocking_ = 0;  // the losses of every event, counted apart
  ThreadMessageLosses threadMessages_;           // model/thread_messages.hpp
};

// Merges sorted per-thread files into one file sorted by (time, file order).
void mergeThreadFiles(const std::vector<std::filesystem::path>& inputs, RecordFormat format,
                      const std::filesystem::path& output);

}  // namespace mtf::tau
