#include "util/safe_output.hpp"

#include <unistd.h>

#include <random>
#include <system_error>

#include "util/error.hpp"

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
    if (fs::create_directory(candidate, ec)) return candidate;
    if (ec) throw IoError(parent.string(), "cannot create a file here: " + ec.message());
  }
  throw IoError(parent.string(), "cannot create a staging directory");
}

}  // namespace

SafeOutput::SafeOutput(const fs::path& target, bool force) : target_(target), force_(force) {
  fs::path name = target.filename();
  if (name.empty()) name = target.parent_path().filename();  // "out_dir/"
  if (name.empty()) throw IoError(target.string(), "not a valid output name");
  fs::path clean = target;
  if (target.filename().empty()) clean = target.parent_path();
  target_ = clean;
  const fs::path parent = parentOf(clean);
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw IoError(clean.string(), "directory " + parent.string() + " does not exist");
  if (access(parent.c_str(), W_OK) != 0)
    throw IoError(clean.string(), "directory " + parent.string() + " is not writable");
  if (fs::exists(clean, ec) && !force_)
    throw IoError(clean.string(), "output exists (use --force to replace it)");
  staging_dir_ = uniqueStagingDir(parent, name);
  staging_path_ = staging_dir_ / name;
}

SafeOutput::~SafeOutput() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_dir_, ec);
}

void SafeOutput::commit() {
  const fs::path parent = parentOf(target_);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(staging_dir_)) {
    const fs::path dest = parent / entry.path().filename();
    if (fs::exists(dest, ec)) {
      if (!force_) throw IoError(dest.string(), "output exists (use --force to replace it)");
      fs::remove_all(dest, ec);
    }
    fs::rename(entry.path(), dest, ec);
    if (ec) throw IoError(dest.string(), "cannot move output into place: " + ec.message());
  }
  fs::remove_all(staging_dir_, ec);
  committed_ = true;
}

bool samePath(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace mtf
