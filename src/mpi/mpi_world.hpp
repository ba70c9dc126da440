// mtf-mpi's use of MPI, in one place: the session (MPI_Init / MPI_Finalize), byte
// messages of any size, the few collectives the commands need, and a count of the bytes
// this process sent (for the benchmark). Only the main thread calls MPI.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mtf::mpi {

class World {
 public:
  World(int& argc, char**& argv);  // MPI_Init_thread (funneled)
  ~World();                        // MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool isRoot() const { return rank_ == 0; }

  void send(int to, const std::string& bytes);
  std::string receive(int from);
  // Rank 0 gets every process's bytes, in rank order; the others an empty list.
  std::vector<std::string> gather(const std::string& mine);
  std::vector<std::string> allGather(const std::string& mine);
  // Rank 0's `bytes` on every process.
  void broadcast(std::string& bytes);
  uint64_t sum(uint64_t mine);
  // The sum over the processes before this one (0 on rank 0).
  uint64_t sumBefore(uint64_t mine);
  int max(int mine);
  void barrier();
  // Ends every process at once (after an error in a phase where the others may wait),
  // after running this process's cleanup (setAbortCleanup).
  [[noreturn]] void abort(int code);
  // What abort() removes first: MPI_Abort ends the processes without their destructors.
  void setAbortCleanup(std::function<void()> cleanup) { abortCleanup_ = std::move(cleanup); }

  // Binomial tree toward rank 0: at step s, a process r with r mod 2s = s sends
  // `encode()` to r - s and is done; r - s gives the bytes to `absorb`. Rank 0 ends with
  // everything absorbed; the shape depends only on the number of processes.
  void reduceToRoot(const std::function<std::string()>& encode,
                    const std::function<void(std::string&&)>& absorb);

  uint64_t bytesSent() const { return bytesSent_; }

 private:
  int rank_ = 0;
  int size_ = 1;
  uint64_t bytesSent_ = 0;
  std::function<void()> abortCleanup_;
};

}  // namespace mtf::mpi
