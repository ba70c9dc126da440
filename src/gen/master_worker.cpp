// Master/worker: rank 0 hands out tasks (one per worker at first, then one to whichever
// worker returns a result), workers compute for a task-dependent time and send the result
// back; rank 0 receives results in the order they arrive (MPI_ANY_SOURCE in the program,
// the actual source in the trace). When the tasks run out, each worker gets a stop message.
//
// The order of results depends on the tasks' costs, so every rank replays the same
// deterministic dispatch simulation (O(workers) memory, O(tasks log workers) time) and
// writes its own part of it: the generator still writes rank after rank.
#include <algorithm>
#include <queue>
#include <tuple>
#include <vector>

#include "gen/kernels.hpp"

namespace mtf::gen {

namespace {

constexpr uint32_t kTaskTag = 1, kResultTag = 2, kStopTag = 3;
constexpr uint64_t kStopBytes = 4;
constexpr uint64_t kTaskMeanNs = 300'000;
// Room for the few events a rank writes between two simulated instants (each at most one
// maximal gap of the emitter, plus one noise call of at most 3.8 us when noise is on), so
// the emitted times equal the simulated ones and receives stay after their sends.
constexpr uint64_t kMarginNs = 3'000;
constexpr uint64_t kNoiseMarginNs = 4'000;
Tick marginOf(const GenContext& c) {
  return c.scale.fromNs(kMarginNs + (c.noiseThreshold != 0 ? kNoiseMarginNs : 0));
}

uint64_t taskBytes(uint64_t seed, uint64_t task) {
  return 1024 * (1 + hashOf(seed, 11, task) % 8);
}
uint64_t resultBytes(uint64_t seed, uint64_t task) {
  return 256 * (1 + hashOf(seed, 12, task) % 16);
}
// Mostly 30%..170% of the mean; one task in eight is three times heavier.
uint64_t taskCostNs(uint64_t seed, uint64_t task) {
  const uint64_t h = hashOf(seed, 13, task);
  const uint64_t percent = 30 + scaleTo(h, 0, 140) + (mix64(h) % 8 == 0 ? 250 : 0);
  return kTaskMeanNs * percent / 100;
}

struct TaskRecord {
  uint32_t worker;
  uint64_t task;
  bool stop;
  Tick sentAt;      // MpiSend of the task (or stop) at the master
  Tick receivedAt;  // MpiRecv of it at the worker
  Tick resultAt;    // MpiSend of the result at the worker (not for stop)
  Tick arrival;     // the result is at the master (not for stop)
};

class DispatchSimulation {
 public:
  DispatchSimulation(const GenContext& c, Tick start)
      : seed_(c.options.seed),
        scale_(c.scale),
        margin_(marginOf(c)),
        workers_(c.options.ranks - 1),
        total_(uint64_t{c.options.iterations} * workers_),
        master_(start),
        ready_(workers_ + 1, start),
        records_(workers_ + 1) {}

  // Calls onSend(record) for every task or stop the master sends (with the worker's
  // side filled in) and onResult(record) for every result it receives, in master order.
  template <class OnSend, class OnResult>
  Tick run(OnSend onSend, OnResult onResult) {
    for (uint32_t w = 1; w <= workers_; ++w) dispatch(w, onSend);
    while (!inFlight_.empty()) {
      const auto [arrival, w, index] = inFlight_.top();
      inFlight_.pop();
      master_ = std::max(master_ + margin_, arrival);
      onResult(records_[index]);
      dispatch(w, onSend);
    }
    return std::max(master_, lastStop_);
  }

 private:
  template <class OnSend>
  void dispatch(uint32_t w, OnSend& onSend) {
    master_ += margin_;
    TaskRecord r{w, next_, next_ >= total_, master_, 0, 0, 0};
    const uint64_t bytes = r.stop ? kStopBytes : taskBytes(seed_, r.task);
    r.receivedAt = std::max(ready_[w], master_ + scale_.fromNs(latencyNs(bytes)));
    if (r.stop) {
      lastStop_ = std::max(lastStop_, r.receivedAt + margin_);
    } else {
      ++next_;
      r.resultAt = r.receivedAt + 2 * margin_ + scale_.fromNs(taskCostNs(seed_, r.task));
      r.arrival = r.resultAt + scale_.fromNs(latencyNs(resultBytes(seed_, r.task)));
      ready_[w] = r.resultAt + margin_;
      records_[w] = r;
      inFlight_.emplace(r.arrival, w, w);
    }
    onSend(r);
  }

  uint64_t seed_;
  TickScale scale_;
  Tick margin_;
  uint32_t workers_;
  uint64_t total_;
  uint64_t next_ = 0;
  Tick master_;
  Tick lastStop_ = 0;
  std::vector<Tick> ready_;          // when each worker waits for its next message
  std::vector<TaskRecord> records_;  // the task each worker is busy with
  using InFlight = std::tuple<Tick, uint32_t, uint32_t>;  // arrival, worker, record slot
  std::priority_queue<InFlight, std::vector<InFlight>, std::greater<>> inFlight_;
};

void writeMasterPart(RankEmitter& e, const TaskRecord& r, bool isResult) {
  const uint64_t seed = e.context().options.seed;
  if (isResult) {
    e.recv(r.worker, kResultTag, resultBytes(seed, r.task), r.arrival);
  } else if (r.stop) {
    e.send(r.worker, kStopTag, kStopBytes, r.sentAt);
  } else {
    e.send(r.worker, kTaskTag, taskBytes(seed, r.task), r.sentAt);
  }
}

void writeWorkerPart(RankEmitter& e, const TaskRecord& r) {
  const uint64_t seed = e.context().options.seed;
  if (r.stop) {
    e.recv(0, kStopTag, kStopBytes, r.receivedAt);
    return;
  }
  e.recv(0, kTaskTag, taskBytes(seed, r.task), r.receivedAt);
  e.computeUntil(r.resultAt - marginOf(e.context()), RegionId::Task);
  e.send(0, kResultTag, resultBytes(seed, r.task), r.resultAt);
}

}  // namespace

void generateMasterWorker(RankEmitter& e) {
  const GenContext& c = e.context();
  StepSchedule schedule(c.options.seed, c.scale, 0);
  emitSetup(e, schedule);
  DispatchSimulation simulation(c, schedule.cursor());
  const bool master = e.rank() == 0;
  const Tick end = simulation.run(
      [&](const TaskRecord& r) {
        if (master)
          writeMasterPart(e, r, false);
        else if (r.worker == e.rank())
          writeWorkerPart(e, r);
      },
      [&](const TaskRecord& r) {
        if (master) writeMasterPart(e, r, true);
      });
  schedule.skipTo(end + marginOf(c));
  emitFinal(e, schedule);
}

}  // namespace mtf::gen
