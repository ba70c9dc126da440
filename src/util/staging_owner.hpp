// What a SafeOutput's staging directory records about itself, so that a run killed
// beyond any handler (SIGKILL, the OOM killer, a lost node) can be cleaned up later, and
// nothing mtf did not create is ever touched:
//  - `.mtf-owner`: "mtf-staging 1", host, pid and the process's start time (from
//    /proc/PID/stat: a reused pid does not pass for the owner);
//  - `.mtf-commit`: written by commit() before it moves anything: the names it moves
//    into the target folder, then "committed" once all are there (the commit point);
//  - `.mtf-replaced/`: what --force replaced, kept until the commit point.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mtf::staging {

inline constexpr const char* kOwnerFile = ".mtf-owner";
inline constexpr const char* kJournalFile = ".mtf-commit";
inline constexpr const char* kReplacedDir = ".mtf-replaced";
inline constexpr const char* kCommittedLine = "committed";

struct Owner {
  std::string host;
  long pid = 0;
  unsigned long long startTime = 0;  // clock ticks after boot, /proc/PID/stat field 22
};

enum class OwnerState { Alive, Dead, OtherHost };

// This process, as an owner file records it.
Owner currentProcess();
void writeOwnerFile(const std::filesystem::path& file, const Owner& owner);
void writeOwner(const std::filesystem::path& stagingDir, const Owner& owner);
// Nothing for a missing or malformed owner file (not mtf's: left alone).
std::optional<Owner> readOwnerFile(const std::filesystem::path& file);
std::optional<Owner> readOwner(const std::filesystem::path& stagingDir);
OwnerState ownerState(const Owner& owner);
// True for ".NAME.mtf-tmp-DIGITS".
bool isStagingName(const std::string& name);
// True for the bookkeeping entries above (never moved into the target folder).
bool isBookkeeping(const std::string& name);

struct Leftover {
  std::filesystem::path dir;
  Owner owner;
  OwnerState state;
};
// The staging directories in `folder` with a valid owner file.
std::vector<Leftover> findLeftovers(const std::filesystem::path& folder);

// Undoes an unfinished commit of `stagingDir` into `folder` by its journal: what it moved
// into place goes, what it replaced comes back. Nothing after the commit point.
void rollBack(const std::filesystem::path& stagingDir, const std::filesystem::path& folder);
// True once the commit of `stagingDir` reached its commit point (or the directory is gone).
bool commitFinished(const std::filesystem::path& stagingDir);
// Removes `dir` and everything in it while other processes may be removing entries of
// it too (mtf-mpi: on an interrupt every rank removes its own spool while rank 0 removes
// the staging directory). std::filesystem::remove_all gives up at the first entry that
// vanished between listing and unlinking (libstdc++ reports ENOENT and leaves the rest),
// so this runs it again while the directory is still there, a bounded number of times.
// True once `dir` is gone.
bool removeTree(const std::filesystem::path& dir);
// Rolls back and removes a staging directory; false if it could not be removed whole.
bool removeLeftover(const Leftover& leftover);

// Removes the staging directories in `folder` left by dead processes of this host, one
// line on stderr for each (`program`: "mtf", "mtf-mpi", ...).
void removeStale(const std::filesystem::path& folder, const char* program);

std::string describe(const Owner& owner);

}  // namespace mtf::staging
