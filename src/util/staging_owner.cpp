#include "util/staging_owner.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::staging {

namespace {

std::string hostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

struct ProcStat {
  char state = '?';
  unsigned long long startTime = 0;  // 0: unknown
};

// Fields 3 (state) and 22 (start time) of /proc/PID/stat. The command name (field 2) may
// hold spaces and parentheses: the fields are counted after its last ')'.
ProcStat procStat(long pid) {
  ProcStat result;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return result;
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return result;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int index = 3; fields >> field && index <= 22; ++index) {
    if (index == 3) result.state = field[0];
    if (index == 22) result.startTime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return result;
}

bool processExists(long pid) {
  return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

std::vector<std::string> journal(const fs::path& stagingDir) {
  std::ifstream in(stagingDir / kJournalFile);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

Owner currentProcess() {
  return {hostName(), static_cast<long>(getpid()), procStat(getpid()).startTime};
}

void writeOwner(const fs::path& stagingDir, const Owner& owner) {
  writeOwnerFile(stagingDir / kOwnerFile, owner);
}

void writeOwnerFile(const fs::path& path, const Owner& owner) {
  std::ofstream out(path);
  out << "mtf-staging 1\nhost " << owner.host << "\npid " << owner.pid << "\nstart "
      << owner.startTime << "\n";
  out.close();
  if (!out) throw IoError(path.string(), "cannot write (disk full?)");
}

std::optional<Owner> readOwner(const fs::path& stagingDir) {
  return readOwnerFile(stagingDir / kOwnerFile);
}

std::optional<Owner> readOwnerFile(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file);
  std::string magic, version, key;
  Owner owner;
  if (!(in >> magic >> version) || magic != "mtf-staging" || version != "1") return std::nullopt;
  if (!(in >> key >> owner.host) || key != "host") return std::nullopt;
  if (!(in >> key >> owner.pid) || key != "pid" || owner.pid <= 0) return std::nullopt;
  if (!(in >> key >> owner.startTime) || key != "start") return std::nullopt;
  return owner;
}

OwnerState ownerState(const Owner& owner) {
  if (owner.host != hostName()) return OwnerState::OtherHost;
  if (!processExists(owner.pid)) return OwnerState::Dead;
  const ProcStat stat = procStat(owner.pid);
  // A zombie (killed, not yet reaped: the children of a killed mpirun) is dead; a start
  // time that differs means the pid was reused by another process.
  if (stat.state == 'Z' || stat.state == 'X') return OwnerState::Dead;
  if (stat.startTime != 0 && owner.startTime != 0 && stat.startTime != owner.startTime)
    return OwnerState::Dead;
  return OwnerState::Alive;
}

bool isStagingName(const std::string& name) {
  static const std::regex pattern(R"(\..+\.mtf-tmp-[0-9]+)");
  return std::regex_match(name, pattern);
}

bool isBookkeeping(const std::string& name) {
  return name == kOwnerFile || name == kJournalFile || name == kReplacedDir;
}

std::vector<Leftover> findLeftovers(const fs::path& folder) {
  std::vector<Leftover> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path dir = it->path();
    if (!isStagingName(dir.filename().string()) || it->is_symlink(ec) || !it->is_directory(ec))
      continue;
    if (std::optional<Owner> owner = readOwner(dir))
      found.push_back({dir, *owner, ownerState(*owner)});
  }
  return found;
}

void rollBack(const fs::path& stagingDir, const fs::path& folder) {
  const std::vector<std::string> names = journal(stagingDir);
  if (names.empty() || names.back() == kCommittedLine) return;
  std::error_code ec;
  for (const std::string& name : names) {
    if (name.find('/') != std::string::npos || isBookkeeping(name)) continue;  // not ours
    // Still in the staging directory: not moved, so the folder's entry is not ours.
    if (!fs::exists(stagingDir / name, ec)) fs::remove_all(folder / name, ec);
    const fs::path replaced = stagingDir / kReplacedDir / name;
    if (fs::exists(replaced, ec) && !fs::exists(folder / name, ec))
      fs::rename(replaced, folder / name, ec);
  }
  fs::remove(stagingDir / kJournalFile, ec);
}

bool commitFinished(const fs::path& stagingDir) {
  std::error_code ec;
  if (!fs::exists(stagingDir, ec)) return true;
  const std::vector<std::string> names = journal(stagingDir);
  return !names.empty() && names.back() == kCommittedLine;
}

bool removeTree(const fs::path& dir) {
  // Each pass removes at least the entry it stopped at; a file another process is still
  // creating goes with a later pass.
  constexpr int kPasses = 64;
  std::error_code ec;
  for (int pass = 0; pass < kPasses; ++pass) {
    fs::remove_all(dir, ec);
    if (!ec || !fs::exists(dir, ec)) return true;
  }
  return !fs::exists(dir, ec);
}

bool removeLeftover(const Leftover& leftover) {
  rollBack(leftover.dir, leftover.dir.parent_path());
  return removeTree(leftover.dir);
}

std::string describe(const Owner& owner) {
  return "pid " + std::to_string(owner.pid) + " on " + owner.host;
}

void removeStale(const fs::path& folder, const char* program) {
  for (const Leftover& leftover : findLeftovers(folder)) {
    if (leftover.state != OwnerState::Dead || !removeLeftover(leftover)) continue;
    std::fprintf(stderr, "%s: removed a staging directory left by a killed run (pid %ld): %s\n",
                 program, leftover.owner.pid, leftover.dir.c_str());
  }
}

}  // namespace mtf::staging
