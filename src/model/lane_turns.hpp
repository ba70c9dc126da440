// Reading on several lanes at once: each lane (a thread) reads its own locations into
// batches, and the lanes take turns handing them to the one sink, a bundle of batches
// per turn, in a fixed rotation (lane 0, 1, ..., 0, 1, ...; a lane that has finished
// leaves it). What the sink sees therefore depends only on the trace and the split of
// its locations, never on which thread ran faster: an archive written from it is the
// same on every run and every machine.
//
// The sink is called by the lane whose turn it is, one lane at a time; the turn is
// passed under a mutex, which orders each lane's calls after the previous lane's.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "model/event_batch.hpp"

namespace mtf {

class TraceSink;

// Thrown in a lane that waits for its turn after another lane failed.
struct LanesAborted : std::runtime_error {
  LanesAborted() : std::runtime_error("reading stopped: another reading lane failed") {}
};

class LaneTurns {
 public:
  // Called after each bundle with the number of events it held (e.g. for progress).
  using Delivered = std::function<void(uint64_t events)>;
  // 32 batches of 256 events: with fewer, the lanes pass the turn (and sleep) more often;
  // with more, a bundle fills much of the queue of a writer's thread at once (measured on
  // the 14 M-event wavefront: 16 and 128 were 2 to 5% slower than 32 and 64).
  static constexpr size_t kDefaultBundleBatches = 32;

  LaneTurns(size_t lanes, TraceSink& sink, Delivered delivered = nullptr,
            size_t bundleBatches = kDefaultBundleBatches);
  LaneTurns(const LaneTurns&) = delete;
  LaneTurns& operator=(const LaneTurns&) = delete;

  // Lane `lane`'s next batch (called on that lane's thread only). When the lane's bundle
  // is full, waits for the lane's turn and hands the bundle to the sink. Throws
  // LanesAborted after abort(), and whatever the sink throws.
  void add(size_t lane, SharedEventBatch batch);
  // Lane `lane` has read everything: at its turn it hands on what it holds and leaves the
  // rotation.
  void finish(size_t lane);
  // Stops the rotation for good (a lane failed): lanes waiting for a turn, and every later
  // add() or finish(), throw LanesAborted.
  void abort();

 private:
  struct Lane {
    std::vector<SharedEventBatch> bundle;  // touched by the lane's own thread only
    bool finished = false;                 // guarded by mutex_
  };
  void takeTurn(size_t lane, bool last);
  size_t nextInRotation(size_t lane) const;  // with mutex_ held

  TraceSink& sink_;
  Delivered delivered_;
  size_t bundleBatches_;
  std::vector<Lane> lanes_;
  std::mutex mutex_;
  std::condition_variable turnChanged_;
  size_t turn_ = 0;
  bool aborted_ = false;
};

// Runs read(lane) for every lane of `turns` at once, lane 0 on the calling thread and
// each other lane on a thread of its own; a lane that returns is finish()ed. A lane that
// throws aborts the others. When all have stopped, the error of the first lane (in lane
// order) that failed by itself, not by LanesAborted, is rethrown: with the locations
// split in order, when both lanes meet an error, the one of the earlier locations. (A
// lane stopped early may not have reached a bad location that one reader would meet
// first: the error reported is then the other lane's, still a true one.)
void runLanes(LaneTurns& turns, size_t lanes, const std::function<void(size_t lane)>& read);

}  // namespace mtf
