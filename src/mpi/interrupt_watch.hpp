// How an mtf-mpi process ends on SIGINT, SIGTERM or SIGHUP. mpirun, when one process dies
// or it is itself signalled, sends SIGTERM to the others and SIGKILL a few milliseconds
// later: too soon for the main thread to notice the signal at its next check and unwind.
// So a watcher thread, woken by the handler through its pipe, runs the cleanup registered
// here at once (this process's spool and record; rank 0 the staging directory, after
// naming the processes that died) and ends the process with 128 + signal, without
// MPI_Finalize. The main thread, should it notice the signal first, does the same on its
// own path; whichever claims the end first does it, the other waits to be ended.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace mtf::mpi {

// Around each MPI call of the main thread: once the watcher is ending the process, the main
// thread, back from MPI, does nothing more.
class InsideMpi {
 public:
  InsideMpi();
  ~InsideMpi();
  InsideMpi(const InsideMpi&) = delete;
  InsideMpi& operator=(const InsideMpi&) = delete;
};

// Installs the signal handler and starts the watcher thread (once).
void watchInterrupts(bool root);
// What the watcher runs before it ends the process; returns the line rank 0 prints.
void setInterruptCleanup(std::function<std::string()> cleanup);
// True for the one thread (main or watcher) that ends the process.
bool claimInterruptedExit();
// Rank 0 prints the one line (after "mtf-mpi: "); the process ends with 128 + signal.
[[noreturn]] void endInterrupted(int signal, bool root, const std::string& line);
// For the thread that did not claim the end.
[[noreturn]] void waitForTheWatcher();

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
