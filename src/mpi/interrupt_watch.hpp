// How an mtf-mpi process ends on SIGINT, SIGTERM or SIGHUP (mpirun sends SIGTERM to every
// process when one of them dies). The ordinary path notices the signal at its checks
// (util/interrupt.hpp), unwinds, cleans up and calls exitInterrupted(). A process whose
// main thread waits inside MPI for a process that is gone cannot get there: a watcher
// thread then runs the cleanup registered here and ends the process itself.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace mtf::mpi {

// Marks the main thread as waiting inside an MPI call while it lives.
class InsideMpi {
 public:
  InsideMpi();
  ~InsideMpi();
  InsideMpi(const InsideMpi&) = delete;
  InsideMpi& operator=(const InsideMpi&) = delete;
};

// Installs the signal handler and starts the watcher thread (once).
void watchInterrupts(bool root);
// What the watcher runs before it ends the process; returns what rank 0 adds to its line.
void setInterruptCleanup(std::function<std::string()> cleanup);
// The ordinary path's end after its cleanup: rank 0 prints the one line (with `detail`),
// then the process ends with 128 + signal, without MPI_Finalize (the others may be gone).
[[noreturn]] void exitInterrupted(int signal, bool root, const std::string& detail);

// A process's record in the staging directory (`.mtf-mpi-process.R`, an owner file), so
// that rank 0 can name a process that died without cleaning up. Removed with this object.
class ProcessRecord {
 public:
  ProcessRecord(const std::filesystem::path& stagingDir, int rank);
  ~ProcessRecord();
  ProcessRecord(const ProcessRecord&) = delete;
  ProcessRecord& operator=(const ProcessRecord&) = delete;
  void remove();

 private:
  std::filesystem::path path_;
};
// " (process 2 died)" for the processes of this host whose record is left and whose
// owner is dead; empty if none is known.
std::string deadProcesses(const std::filesystem::path& stagingDir, int processes);

}  // namespace mtf::mpi
