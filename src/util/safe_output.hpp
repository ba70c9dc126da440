// Safe output: a writer writes into a staging directory beside the target; only commit()
// moves the finished files into place, so a failure never leaves a half-written output.
// The staging directory records its owner (util/staging_owner.hpp): a run killed beyond
// any handler leaves one that the next SafeOutput in the same folder removes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mtf {

class SafeOutput {
 public:
  // `target` is the path the user named (e.g. out/trace.otf2, out/t.prv, out_tau/).
  // Creates a missing parent directory (removed again if nothing is committed); refuses
  // (IoError) an unwritable parent; refuses an existing output unless `force`. First
  // removes the folder's staging directories left by killed runs of this host, saying so
  // on stderr after "`program`: ".
  SafeOutput(const std::filesystem::path& target, bool force, const char* program = "mtf");
  ~SafeOutput();  // removes the staging directory unless committed
  SafeOutput(const SafeOutput&) = delete;
  SafeOutput& operator=(const SafeOutput&) = delete;

  // Where the writer must write: same file name as the target, inside the staging dir.
  // A writer that produces several entries (x.otf2 + x.def + x/) puts them all there.
  const std::filesystem::path& stagingPath() const { return staging_path_; }
  // Moves every entry of the staging directory into the target directory (replacing
  // existing ones only with force) and removes the staging directory. All or nothing: a
  // failure, or an interrupt (util/interrupt.hpp) before the last entry is in place, moves
  // back what was moved and throws (IoError, Interrupted). An interrupt that comes after
  // that point is too late to undo a finished output: the commit completes.
  void commit();

 private:
  void createParent(const std::filesystem::path& parent);
  std::vector<std::filesystem::path> entriesToMove() const;
  void moveIntoPlace(const std::vector<std::filesystem::path>& entries);

  std::filesystem::path target_;
  std::filesystem::path created_root_;  // outermost directory this output created, if any
  std::filesystem::path staging_dir_;
  std::filesystem::path staging_path_;
  std::filesystem::path parent_;
  bool force_ = false;
  bool committed_ = false;
};

// True if `a` and `b` name the same existing file or directory (the output is never the input).
bool samePath(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace mtf
