#include "cli/large_tau_set.hpp"

#include <cstring>
#include <fstream>
#include <vector>

namespace mtf::test {

namespace {

constexpr int32_t kEvInit = 60000, kFlushClose = 60003, kSend = 60007, kReceive = 60008;

struct Record {
  int32_t event;
  uint16_t node;
  uint16_t thread;
  int64_t par;
  uint64_t time;
};

// The 24-byte record form of the formats README, little-endian (as x86 writes it).
void put(std::vector<char>& out, const Record& r) {
  char bytes[24];
  std::memcpy(bytes, &r.event, 4);
  std::memcpy(bytes + 4, &r.node, 2);
  std::memcpy(bytes + 6, &r.thread, 2);
  std::memcpy(bytes + 8, &r.par, 8);
  std::memcpy(bytes + 16, &r.time, 8);
  out.insert(out.end(), bytes, bytes + 24);
}

// TAU's `par` of a message: length, tag and other rank spread over the 64 bits.
int64_t messagePar(uint64_t other, uint64_t tag, uint64_t length) {
  const uint64_t bits = (length & 0xffff) | (tag & 0xff) << 16 | (other & 0xff) << 24 |
                        ((length >> 16) & 0x3ff) << 32 | ((tag >> 8) & 0xff) << 48 |
                        ((other >> 8) & 0xff) << 56;
  return static_cast<int64_t>(bits);
}

std::string regionName(uint32_t node, uint32_t region, uint32_t length) {
  std::string name = "PetscErrorCode KSPSolve_node" + std::to_string(node) + "_region" +
                     std::to_string(region) + "(";
  while (name.size() < length) name += "Mat A, Vec b, Vec x, PetscInt its, PetscReal rtol, ";
  name.resize(length);
  return name + ") C ";
}

void writeEdf(const std::string& path, uint32_t node, const LargeTauSet& shape) {
  std::vector<std::string> lines;
  for (uint32_t r = 0; r < shape.regions; ++r)
    lines.push_back(std::to_string(r + 1) + " TAU_USER 0 \"" +
                    regionName(node, r, shape.nameLength) + "\" EntryExit");
  for (const char* tracer :
       {"60000 TRACER 0 \"EV_INIT\" none", "60003 TRACER 0 \"FLUSH_CLOSE\" none",
        "60007 TAU_MESSAGE -7 \"MESSAGE_SEND\" par", "60008 TAU_MESSAGE -8 \"MESSAGE_RECV\" par"})
    lines.emplace_back(tracer);
  std::ofstream out(path, std::ios::binary);
  out << lines.size() << " dynamic_trace_events\n# FunctionId Group Tag \"Name Type\" Parameters\n";
  for (const std::string& line : lines) out << line << '\n';
}

}  // namespace

LargeTauCounts writeLargeTauSet(const std::string& dir, const LargeTauSet& shape) {
  LargeTauCounts counts;
  for (uint32_t node = 0; node < shape.nodes; ++node) {
    writeEdf(dir + "/events." + std::to_string(node) + ".edf", node, shape);
    const uint16_t n = static_cast<uint16_t>(node);
    uint64_t time = 1000;
    std::vector<char> trc;
    put(trc, {kEvInit, n, 0, 3, time});
    for (uint32_t r = 0; r < shape.regions; ++r) {
      put(trc, {static_cast<int32_t>(r + 1), n, 0, 1, time += 10});
      ++counts.regionsEntered;
      if (shape.nodes > 1 && r % shape.messageEvery == 0) {
        const uint64_t next = (node + 1) % shape.nodes;
        const uint64_t previous = (node + shape.nodes - 1) % shape.nodes;
        put(trc, {kSend, n, 0, messagePar(next, r % 200, 1024 + r), time += 1});
        put(trc, {kReceive, n, 0, messagePar(previous, r % 200, 1024 + r), time += 1});
        ++counts.sends;
        ++counts.receives;
      }
      put(trc, {static_cast<int32_t>(r + 1), n, 0, -1, time += 10});
    }
    put(trc, {kFlushClose, n, 0, 0, time += 1});
    std::ofstream(dir + "/tautrace." + std::to_string(node) + ".0.0.trc", std::ios::binary)
        .write(trc.data(), static_cast<std::streamsize>(trc.size()));
  }
  return counts;
}

}  // namespace mtf::test
