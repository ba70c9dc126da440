#include "util/safe_output.hpp"

#include <unistd.h>

#include <fstream>
#include <random>
#include <system_error>

#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/staging_owner.hpp"

namespace fs = std::filesystem;

namespace mtf {

namespace {

fs::path parentOf(const fs::path& target) {
  fs::path parent = target.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

fs::path uniqueStagingDir(const fs::path& parent, const fs::path& name) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path candidate =
        parent / ("." + name.string() + ".mtf-tmp-" + std::to_string(rd() % 1000000));
    std::error_code ec;
    if (fs::create_directory(candidate, ec)) {
      try {
        staging::writeOwner(candidate, staging::currentProcess());
      } catch (...) {
        fs::remove_all(candidate, ec);
        throw;
      }
      return candidate;
    }
    if (ec) throw IoError(parent.string(), "cannot create a file here: " + ec.message());
  }
  throw IoError(parent.string(), "cannot create a staging directory");
}

// The outermost missing directory on the way to `dir` (empty when `dir` exists).
fs::path firstMissingAncestor(const fs::path& dir) {
  fs::path missing;
  std::error_code ec;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing = p;
    if (p == p.parent_path()) break;
  }
  return missing;
}

}  // namespace

// A missing output directory is created, as babeltrace2 does for its output directory;
// what was created is removed again if the output is never committed.
void SafeOutput::createParent(const fs::path& parent) {
  created_root_ = firstMissingAncestor(parent);
  if (created_root_.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    created_root_.clear();
    throw IoError(parent.string(), "cannot create the output directory: " + ec.message());
  }
}

SafeOutput::SafeOutput(const fs::path& target, bool force, const char* program)
    : target_(target), force_(force) {
  fs::path name = target.filename();
  if (name.empty()) name = target.parent_path().filename();  // "out_dir/"
  if (name.empty()) throw IoError(target.string(), "not a valid output name");
  fs::path clean = target;
  if (target.filename().empty()) clean = target.parent_path();
  target_ = clean;
  const fs::path parent = parentOf(clean);
  parent_ = parent;
  std::error_code ec;
  createParent(parent);
  if (!fs::is_directory(parent, ec))
    throw IoError(clean.string(), parent.string() + " is not a directory");
  if (access(parent.c_str(), W_OK) != 0)
    throw IoError(clean.string(), "directory " + parent.string() + " is not writable");
  staging::removeStale(parent, program);  // first: a killed run's output may be the target
  if (fs::exists(clean, ec) && !force_)
    throw IoError(clean.string(), "output exists (use --force to replace it)");
  staging_dir_ = uniqueStagingDir(parent, name);
  staging_path_ = staging_dir_ / name;
}

SafeOutput::~SafeOutput() {
  if (committed_) return;
  std::error_code ec;
  staging::rollBack(staging_dir_, parent_);
  staging::removeTree(staging_dir_);
  if (!created_root_.empty()) fs::remove_all(created_root_, ec);
}

std::vector<fs::path> SafeOutput::entriesToMove() const {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(staging_dir_)) {
    if (staging::isBookkeeping(entry.path().filename().string())) continue;
    const fs::path dest = parent_ / entry.path().filename();
    if (fs::exists(dest, ec) && !force_)
      throw IoError(dest.string(), "output exists (use --force to replace it)");
    entries.push_back(entry.path());
  }
  return entries;
}

// The journal names every entry before the first moves: a run killed in between is
// rolled back by the next one (staging::rollBack), as a failure here is by the destructor.
void SafeOutput::moveIntoPlace(const std::vector<fs::path>& entries) {
  const fs::path journalPath = staging_dir_ / staging::kJournalFile;
  std::ofstream journal(journalPath);
  for (const fs::path& entry : entries) journal << entry.filename().string() << '\n';
  journal.flush();
  if (!journal) throw IoError(journalPath.string(), "cannot write (disk full?)");
  std::error_code ec;
  for (const fs::path& entry : entries) {
    const fs::path dest = parent_ / entry.filename();
    if (fs::exists(dest, ec)) {  // --force: kept aside until the commit point
      fs::create_directory(staging_dir_ / staging::kReplacedDir, ec);
      fs::rename(dest, staging_dir_ / staging::kReplacedDir / entry.filename(), ec);
      if (ec) throw IoError(dest.string(), "cannot replace: " + ec.message());
    }
    fs::rename(entry, dest, ec);
    if (ec) throw IoError(dest.string(), "cannot move output into place: " + ec.message());
  }
  pauseForTest("rename");
  throwIfInterrupted();
  journal << staging::kCommittedLine << '\n';  // the commit point
  journal.flush();
}

void SafeOutput::commit() {
  throwIfInterrupted();
  moveIntoPlace(entriesToMove());
  committed_ = true;
  staging::removeTree(staging_dir_);
}

bool samePath(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace mtf
