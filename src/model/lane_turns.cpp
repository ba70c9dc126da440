#include "model/lane_turns.hpp"

#include <exception>
#include <thread>

#include "model/trace_stream.hpp"

namespace mtf {

LaneTurns::LaneTurns(size_t lanes, TraceSink& sink, Delivered delivered, size_t bundleBatches)
    : sink_(sink),
      delivered_(std::move(delivered)),
      bundleBatches_(bundleBatches ? bundleBatches : 1),
      lanes_(lanes ? lanes : 1) {}

void LaneTurns::add(size_t lane, SharedEventBatch batch) {
  std::vector<SharedEventBatch>& bundle = lanes_[lane].bundle;
  bundle.push_back(std::move(batch));
  if (bundle.size() >= bundleBatches_) takeTurn(lane, false);
}

void LaneTurns::finish(size_t lane) {
  takeTurn(lane, true);
}

void LaneTurns::abort() {
  {
    std::lock_guard lock(mutex_);
    aborted_ = true;
  }
  turnChanged_.notify_all();
}

size_t LaneTurns::nextInRotation(size_t lane) const {
  for (size_t step = 1; step <= lanes_.size(); ++step) {
    const size_t candidate = (lane + step) % lanes_.size();
    if (!lanes_[candidate].finished) return candidate;
  }
  return lane;  // every lane has finished
}

void LaneTurns::takeTurn(size_t lane, bool last) {
  {
    std::unique_lock lock(mutex_);
    turnChanged_.wait(lock, [&] { return aborted_ || turn_ == lane; });
    if (aborted_) throw LanesAborted();
  }
  // The lane's turn: no other lane calls the sink until it is passed on below.
  std::vector<SharedEventBatch>& bundle = lanes_[lane].bundle;
  uint64_t events = 0;
  try {
    for (const SharedEventBatch& batch : bundle) {
      events += batch->size;
      sink_.events(batch);
    }
  } catch (...) {
    bundle.clear();
    abort();  // the turn is never passed on: nobody may wait for it
    throw;
  }
  bundle.clear();
  if (delivered_) delivered_(events);
  {
    std::lock_guard lock(mutex_);
    if (last) lanes_[lane].finished = true;
    turn_ = nextInRotation(lane);
  }
  turnChanged_.notify_all();
}

void runLanes(LaneTurns& turns, size_t lanes, const std::function<void(size_t lane)>& read) {
  std::vector<std::exception_ptr> errors(lanes);
  auto runLane = [&](size_t lane) {
    try {
      read(lane);
      turns.finish(lane);
    } catch (...) {
      errors[lane] = std::current_exception();
      turns.abort();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(lanes);
  try {
    for (size_t lane = 1; lane < lanes; ++lane) threads.emplace_back(runLane, lane);
  } catch (...) {
    turns.abort();  // no thread for a lane: stop the others before waiting for them
    for (std::thread& t : threads) t.join();
    throw;
  }
  runLane(0);
  for (std::thread& t : threads) t.join();
  std::exception_ptr aborted;
  for (const std::exception_ptr& error : errors) {
    if (!error) continue;
    try {
      std::rethrow_exception(error);
    } catch (const LanesAborted&) {
      aborted = error;
    }
  }
  if (aborted) std::rethrow_exception(aborted);
}

}  // namespace mtf
