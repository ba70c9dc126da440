#include "converters/paraver/kernel_rules.hpp"

#include <limits>

#include "model/types.hpp"

namespace mtf::paraver {

KernelRules::KernelRules(const Header& header) : header_(header) {
  if (!header.hasResources) return;
  uint64_t last = 0;
  for (uint32_t node = 0; node < header.nodes; ++node) {
    last += header.cpusPerNode.empty() ? 1 : header.cpusPerNode[node];
    cpuEnd_.push_back(last);
  }
}

CpuRange KernelRules::cpusOfNode(uint32_t node) const {
  if (node == 0 || node > cpuEnd_.size()) return {};
  return {node == 1 ? 1 : cpuEnd_[node - 2] + 1, cpuEnd_[node - 1]};
}

Refusal KernelRules::checkCpu(uint64_t cpu, uint32_t taskNode) const {
  if (cpu == 0) return Refusal::None;
  if (cpu > totalCpus()) return Refusal::CpuBeyondHeader;
  return cpusOfNode(taskNode).contains(cpu) ? Refusal::None : Refusal::CpuOfOtherNode;
}

uint32_t KernelRules::nodeOfTask(uint64_t appl, uint64_t task) const {
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  if (appl > kMax || task > kMax) return 0;
  const uint64_t global =
      header_.globalTaskOf(static_cast<uint32_t>(appl), static_cast<uint32_t>(task));
  if (global == kUndefinedId) return 0;
  return header_.applications[appl - 1].tasks[task - 1].node;
}

Refusal KernelRules::check(uint64_t cpu, uint64_t appl, uint64_t task, uint64_t thread) const {
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  if (appl > kMax || task > kMax || thread > kMax ||
      header_.locationOf(static_cast<uint32_t>(appl), static_cast<uint32_t>(task),
                         static_cast<uint32_t>(thread)) == kUndefinedId)
    return Refusal::UnknownThread;
  return checkCpu(cpu, nodeOfTask(appl, task));
}

void RefusalTally::add(RecordKind kind, Refusal reason, uint64_t cpu, uint64_t line) {
  if (reason == Refusal::None) return;
  Entry& e = entries_[{kind, reason}];
  if (e.count++ == 0) e.firstLine = line, e.firstCpu = cpu;
  if (cpu > e.highestCpu) e.highestCpu = cpu;
}

uint64_t RefusalTally::total() const {
  uint64_t n = 0;
  for (const auto& [key, e] : entries_) n += e.count;
  return n;
}

uint64_t RefusalTally::count(RecordKind kind, Refusal reason) const {
  const auto it = entries_.find({kind, reason});
  return it == entries_.end() ? 0 : it->second.count;
}

namespace {

std::string recordsOf(RecordKind kind, uint64_t count) {
  const char* name = kind == RecordKind::State   ? "state"
                     : kind == RecordKind::Event ? "event"
                                                 : "communication";
  return std::to_string(count) + " " + name + (count == 1 ? " record" : " records");
}

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::vector<std::string> RefusalTally::describe(uint64_t declaredCpus) const {
  std::vector<std::string> lines;
  for (const auto& [key, e] : entries_) {
    const auto& [kind, reason] = key;
    const bool one = e.count == 1;
    std::string text = recordsOf(kind, e.count) + (one ? " names" : " name");
    if (kind == RecordKind::Communication) text += " at one end";
    if (reason == Refusal::CpuBeyondHeader) {
      text += (e.firstCpu == e.highestCpu ? " CPU " : " CPUs up to ") +
              std::to_string(e.highestCpu) + " but the header declares " +
              plural(declaredCpus, "CPU");
    } else if (reason == Refusal::CpuOfOtherNode) {
      text += " a CPU of another node than the one " + std::string(one ? "its" : "their") +
              " task runs on (first CPU " + std::to_string(e.firstCpu) + ")";
    } else {
      text += " an application, task or thread the header does not declare";
    }
    lines.push_back(text + " (first at line " + std::to_string(e.firstLine) +
                    "); paraver-kernel skips " + (one ? "it" : "them"));
  }
  return lines;
}

}  // namespace mtf::paraver
