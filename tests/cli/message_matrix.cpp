#include "cli/message_matrix.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "cli/run_command.hpp"

namespace fs = std::filesystem;

namespace mtf::test {
namespace {

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The numbers inside "<...>" after `from` in `line`, up to `until` (npos: the end).
std::vector<int64_t> bracketedNumbers(const std::string& line, size_t from, size_t until) {
  std::vector<int64_t> out;
  for (size_t open = line.find(" <", from); open != std::string::npos && open < until;
       open = line.find(" <", open + 2)) {
    const size_t close = line.find('>', open);
    if (close == std::string::npos) break;
    const std::string digits = line.substr(open + 2, close - open - 2);
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos)
      out.push_back(std::stoll(digits));
  }
  return out;
}

// Location id -> world rank, from the COMM_LOCATIONS group otf2-print -G lists.
std::map<int64_t, int64_t> worldRanksOfLocations(const std::string& anchor) {
  const CommandResult r = run("otf2-print -G " + anchor, false);
  if (r.status != 0) throw std::runtime_error("otf2-print -G failed on " + anchor);
  std::istringstream in(r.output);
  std::map<int64_t, int64_t> ranks;
  for (std::string line; std::getline(in, line);) {
    if (!startsWith(line, "GROUP") || line.find("Type: COMM_LOCATIONS") == std::string::npos)
      continue;
    const size_t members = line.find("Members:");
    const std::vector<int64_t> locations = bracketedNumbers(line, members, std::string::npos);
    for (size_t i = 0; i < locations.size(); ++i) ranks[locations[i]] = static_cast<int64_t>(i);
  }
  return ranks;
}

int64_t rankOf(const std::map<int64_t, int64_t>& ranks, int64_t location) {
  const auto it = ranks.find(location);
  return it == ranks.end() ? -1 : it->second;
}

}  // namespace

SidedMatrices otf2Matrices(const std::string& anchor) {
  const std::map<int64_t, int64_t> ranks = worldRanksOfLocations(anchor);
  const CommandResult r = run("otf2-print " + anchor, false);
  if (r.status != 0) throw std::runtime_error("otf2-print failed on " + anchor);
  SidedMatrices m;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    const bool send = startsWith(line, "MPI_SEND ") || startsWith(line, "MPI_ISEND ");
    const bool recv = startsWith(line, "MPI_RECV ") || startsWith(line, "MPI_IRECV ");
    if (!send && !recv) continue;
    std::istringstream fields(line);
    std::string kind;
    int64_t location = -1;
    fields >> kind >> location;
    const size_t partner = line.find(send ? "Receiver: " : "Sender: ");
    const std::vector<int64_t> resolved =
        bracketedNumbers(line, partner, line.find(", Communicator", partner));
    const int64_t self = rankOf(ranks, location);
    const int64_t other = resolved.empty() ? -1 : rankOf(ranks, resolved.front());
    if (send) ++m.sends[{self, other}];
    if (recv) ++m.receives[{other, self}];
  }
  return m;
}

MessageMatrix paraverMatrix(const std::string& prv) {
  std::istringstream in;
  if (prv.ends_with(".gz")) {
    const CommandResult text = run("gzip -dc '" + prv + "'", false);
    if (text.status != 0) throw std::runtime_error("cannot read " + prv);
    in.str(text.output);
  } else {
    std::ifstream file(prv);
    if (!file) throw std::runtime_error("cannot read " + prv);
    in.str(std::string(std::istreambuf_iterator<char>(file), {}));
  }
  MessageMatrix m;
  for (std::string line; std::getline(in, line);) {
    if (!startsWith(line, "3:")) continue;
    std::vector<int64_t> f;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ':');) f.push_back(std::stoll(field));
    // 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
    if (f.size() >= 15) ++m[{f[3] - 1, f[9] - 1}];
  }
  return m;
}

namespace {

// The ids the .edf of a node gives MESSAGE_SEND and MESSAGE_RECV.
std::pair<int64_t, int64_t> messageIds(const fs::path& edf) {
  std::ifstream in(edf);
  int64_t send = -1, recv = -1;
  for (std::string line; std::getline(in, line);) {
    const int64_t id = std::atoll(line.c_str());
    if (line.find("\"MESSAGE_SEND\"") != std::string::npos) send = id;
    if (line.find("\"MESSAGE_RECV\"") != std::string::npos) recv = id;
  }
  return {send, recv};
}

template <typename T>
T little(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // the test machine is little-endian, as mtf's TAU writer
  return v;
}

int64_t otherRank(int64_t par) {
  const uint64_t p = static_cast<uint64_t>(par);
  return static_cast<int64_t>(((p >> 24) & 0xFF) | (((p >> 56) & 0xFF) << 8));
}

void countTraceFile(const fs::path& trc, std::pair<int64_t, int64_t> ids, SidedMatrices& m) {
  std::ifstream in(trc, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 32) return;
  // Record 0 is EV_INIT with par == 3: at offset 8 in the 24-byte form, 16 in the 32-byte.
  const size_t size = little<int64_t>(bytes.data() + 8) == 3 ? 24 : 32;
  const size_t parAt = size == 24 ? 8 : 16, nidAt = size == 24 ? 4 : 8;
  for (size_t at = 0; at + size <= bytes.size(); at += size) {
    const char* r = bytes.data() + at;
    const int64_t ev = size == 24 ? little<int32_t>(r) : little<int64_t>(r);
    const int64_t node = little<uint16_t>(r + nidAt);
    const int64_t other = otherRank(little<int64_t>(r + parAt));
    if (ev == ids.first) ++m.sends[{node, other}];
    if (ev == ids.second) ++m.receives[{other, node}];
  }
}

}  // namespace

SidedMatrices tauMatrices(const std::string& directory) {
  SidedMatrices m;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (!startsWith(name, "tautrace.") || entry.path().extension() != ".trc") continue;
    const std::string node = name.substr(9, name.find('.', 9) - 9);
    countTraceFile(entry.path(), messageIds(fs::path(directory) / ("events." + node + ".edf")), m);
  }
  return m;
}

RankPairs pairsOf(const MessageMatrix& m) {
  RankPairs pairs;
  for (const auto& [pair, count] : m)
    if (count > 0) pairs.insert(pair);
  return pairs;
}

void loopPairs(const std::string& text, RankPairs& sends, RankPairs& receives) {
  static const std::regex line(R"(^\s*(-?\d+) (send|isend|recv|irecv) (-?\d+) tag)");
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    const std::pair<int64_t, int64_t> pair{std::stoll(m[1]), std::stoll(m[3])};
    (m[2].str().find("send") != std::string::npos ? sends : receives).insert(pair);
  }
}

std::string describe(const MessageMatrix& m) {
  std::ostringstream out;
  for (const auto& [pair, count] : m)
    out << pair.first << "->" << pair.second << ":" << count << " ";
  return out.str();
}

uint64_t total(const MessageMatrix& m) {
  uint64_t sum = 0;
  for (const auto& [pair, count] : m) sum += count;
  return sum;
}

}  // namespace mtf::test
