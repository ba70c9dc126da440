#include "compaction/expansion_lanes.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "compaction/location_expansion.hpp"

namespace mtf::compaction {

namespace {

// Events a lane decoded, handed to the calling thread as they are: the calling thread joins
// each into its plan's own event (joinInPlace), so the lane copies nothing. The plans are
// the lane's, kept until the calling thread has had their events (retainJoiner); only the
// calling thread touches their events. A block keeps its values' capacity from one use to
// the next: no allocation once warm.
struct LaneBlock {
  DecodedBlock decoded;
  bool unitEnd = false;      // the last block of its unit
  std::exception_ptr error;  // the unit failed after the events of this block
};

// The blocks of one lane, filled by it and read by the calling thread in order. A side
// that waits is woken only when there is work for it: the calling thread at the next block
// published, the lane once half the ring is free again (not at every block released: the
// two threads would otherwise switch at every block, thousands of times a second).
class BlockRing {
 public:
  explicit BlockRing(size_t blocks) : blocks_(blocks) {}
  // The lane's next block to fill, once the calling thread has read what it held; nullptr
  // after stop().
  LaneBlock* acquire() {
    std::unique_lock lock(mutex_);
    if (produced_ - consumed_ == blocks_.size()) {
      laneWaits_ = true;
      changed_.wait(lock, [this] { return stopped_ || halfFree(); });
      laneWaits_ = false;
    }
    return stopped_ ? nullptr : &blocks_[produced_ % blocks_.size()];
  }
  void publish() {
    bool wake;
    {
      std::lock_guard lock(mutex_);
      ++produced_;
      wake = callerWaits_;
    }
    if (wake) changed_.notify_one();
  }
  // The calling thread's next block, once the lane has filled it.
  LaneBlock& next() {
    std::unique_lock lock(mutex_);
    if (produced_ == consumed_) {
      callerWaits_ = true;
      changed_.wait(lock, [this] { return produced_ > consumed_; });
      callerWaits_ = false;
    }
    return blocks_[consumed_ % blocks_.size()];
  }
  // `unitEnd`: the block was its unit's last (unitsDelivered() counts them).
  void release(bool unitEnd) {
    bool wake;
    {
      std::lock_guard lock(mutex_);
      ++consumed_;
      unitsDelivered_ += unitEnd;
      wake = laneWaits_ && halfFree();
    }
    if (wake) changed_.notify_one();
  }
  // The lane's units whose events the calling thread has all had.
  size_t unitsDelivered() {
    std::lock_guard lock(mutex_);
    return unitsDelivered_;
  }
  // The calling thread stops reading (it failed): the lane stops at its next block.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
  }

 private:
  bool halfFree() const { return produced_ - consumed_ <= blocks_.size() / 2; }
  std::vector<LaneBlock> blocks_;
  // Blocks published by the lane and released by the calling thread (only one side
  // waits at a time: the ring is either full or empty).
  size_t produced_ = 0, consumed_ = 0;
  size_t unitsDelivered_ = 0;
  bool stopped_ = false;
  bool laneWaits_ = false, callerWaits_ = false;  // in acquire(), in next()
  std::mutex mutex_;
  std::condition_variable changed_;
};

struct Stopped {};  // thrown in a lane whose ring was stopped

// An output of LocationExpansion::expandChunk into a lane's blocks: the expansion decodes
// into a block of the ring, which is then handed over whole.
class BlockOutput {
 public:
  explicit BlockOutput(BlockRing& ring) : ring_(ring) {}
  DecodedBlock& block() {
    if (!block_) take();
    return block_->decoded;
  }
  void hand(DecodedBlock&, LocationJoiner&) { hand(false); }
  void endUnit() {
    if (!block_) take();
    hand(true);
  }
  void fail(std::exception_ptr error) {
    if (!block_) take();
    block_->decoded.size = 0;  // a block being decoded when the error came holds nothing
    block_->error = std::move(error);
    hand(true);
  }

 private:
  void take() {
    block_ = ring_.acquire();
    if (!block_) throw Stopped{};
    block_->decoded.size = 0;
    block_->unitEnd = false;
    block_->error = nullptr;
  }
  void hand(bool unitEnd) {
    block_->unitEnd = unitEnd;
    block_ = nullptr;
    ring_.publish();
  }
  BlockRing& ring_;
  LaneBlock* block_ = nullptr;
};

struct Unit {
  size_t location;  // index into model.locations
  size_t chunk;
};

// Blocks of up to 512 events (LocationExpansion::kBlockEvents), 129 per lane: a chunk of the
// default 65,536 events fits, with the empty block that ends it.
constexpr size_t kRingBlocks = 129;

class Lanes {
 public:
  Lanes(const CompactModel& model, const ExpandOptions& options, std::vector<Unit> units,
        size_t lanes)
      : model_(model),
        options_(options),
        units_(std::move(units)),
        lanes_(lanes),
        joiners_(lanes),
        ranks_(model.definitions) {}
  ~Lanes() {
    for (auto& ring : rings_) ring->stop();
    for (std::thread& t : threads_) t.join();
  }
  void run(TraceSink& sink) {
    for (size_t lane = 1; lane < lanes_; ++lane)
      rings_.push_back(std::make_unique<BlockRing>(kRingBlocks));
    for (size_t lane = 1; lane < lanes_; ++lane)
      threads_.emplace_back([this, lane] { decodeLane(lane); });
    std::optional<LocationExpansion> expansion;
    SinkOutput out(sink, options_);
    for (size_t u = 0; u < units_.size(); ++u) {
      if (u % lanes_ == 0)
        expansionOf(expansion, u, 0).expandChunk(units_[u].chunk, out);
      else
        deliverUnit(*rings_[u % lanes_ - 1], sink);
    }
  }

 private:
  // The expansion of unit `u`'s location on lane `lane`. The plans of lanes 1, 2, ...
  // outlive it (joiners_): the calling thread joins their events later.
  LocationExpansion& expansionOf(std::optional<LocationExpansion>& expansion, size_t u,
                                 size_t lane) {
    const size_t location = units_[u].location;
    if (lane > 0) retainJoiner(lane, u, location);
    if (expansion && expansion->index() == location) return *expansion;
    expansion.emplace(model_, location, options_,
                      lane > 0 ? &joiners_[lane].back().joiner : nullptr);
    return *expansion;
  }
  // On lane `lane`: unit `u` (its k-th) uses the joiner of `location`, made if new; the
  // joiners of units the calling thread has all delivered go (memory stays bounded).
  void retainJoiner(size_t lane, size_t u, size_t location) {
    std::deque<RetainedJoiner>& joiners = joiners_[lane];
    const size_t k = u / lanes_;  // the lane's units are u = lane, lane + lanes_, ...
    if (!joiners.empty() && joiners.back().location == location) {
      joiners.back().lastUnit = k;
      return;
    }
    const size_t delivered = rings_[lane - 1]->unitsDelivered();
    while (!joiners.empty() && joiners.front().lastUnit < delivered) joiners.pop_front();
    joiners.push_back({location, k, LocationJoiner(model_, model_.locations[location].location)});
  }
  // On lane `lane`'s thread: its units into its ring.
  void decodeLane(size_t lane) {
    BlockOutput out(*rings_[lane - 1]);
    std::optional<LocationExpansion> expansion;
    try {
      for (size_t u = lane; u < units_.size(); u += lanes_) {
        expansionOf(expansion, u, lane).expandChunk(units_[u].chunk, out);
        out.endUnit();
      }
    } catch (const Stopped&) {
    } catch (...) {
      try {
        out.fail(std::current_exception());  // rethrown by the calling thread, in order
      } catch (const Stopped&) {
      }
    }
  }
  // Lanes run only without a prefix sink: the events before the window are not kept.
  void deliverUnit(BlockRing& ring, TraceSink& sink) {
    const BlockDelivery how(sink, options_.window, false, ranks_);
    for (;;) {
      LaneBlock& block = ring.next();
      deliverBlock(block.decoded, how);
      const bool end = block.unitEnd;
      const std::exception_ptr error = block.error;
      ring.release(end);
      if (error) std::rethrow_exception(error);
      if (end) return;
    }
  }

  const CompactModel& model_;
  const ExpandOptions& options_;
  const std::vector<Unit> units_;
  const size_t lanes_;
  std::vector<std::unique_ptr<BlockRing>> rings_;  // of lanes 1, 2, ...
  // Per lane, the join plans of the locations whose units the calling thread may not have
  // delivered yet (a deque: they stay in place): it joins the lane's events.
  struct RetainedJoiner {
    size_t location;
    size_t lastUnit;  // the last of the lane's units (counted from 0) that uses it
    LocationJoiner joiner;
  };
  std::vector<std::deque<RetainedJoiner>> joiners_;
  OwnRanks ranks_;  // the calling thread's (ranks per event: JoinPlan::ranksPerEvent)
  std::vector<std::thread> threads_;
};

// The chunks to decode, in delivery order (those in the window).
std::vector<Unit> unitsOf(const CompactModel& model, const std::vector<size_t>& indices,
                          const TimeWindow& window) {
  std::vector<Unit> units;
  for (size_t l : indices) {
    const std::vector<ColumnChunk>& chunks = model.locations.at(l).columns;
    for (size_t c = 0; c < chunks.size(); ++c)
      if (window.all() || (chunks[c].maxTime >= window.from && chunks[c].minTime <= window.to))
        units.push_back({l, c});
  }
  return units;
}

}  // namespace

size_t defaultExpansionLanes() {
  return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
}

void expandLocations(const CompactModel& model, const std::vector<size_t>& indices,
                     const ExpandOptions& options, TraceSink& sink) {
  size_t lanes = options.lanes ? options.lanes : defaultExpansionLanes();
  std::vector<Unit> units;
  if (!options.prefix && lanes > 1) units = unitsOf(model, indices, options.window);
  lanes = std::min(lanes, units.size());
  if (lanes <= 1) {
    for (size_t l : indices) LocationExpansion(model, l, options).run(sink);
    return;
  }
  Lanes(model, options, std::move(units), lanes).run(sink);
}

}  // namespace mtf::compaction
