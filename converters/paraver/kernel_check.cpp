#include "converters/paraver/kernel_check.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "converters/paraver/header.hpp"
#include "converters/paraver/kernel_rules.hpp"
#include "converters/paraver/line_reader.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

namespace {

// The ':'-separated fields after the record type; false if one is not a non-negative
// integer (paraver-kernel reads CPU, thread and time fields as unsigned or non-negative).
bool splitFields(std::string_view text, std::vector<uint64_t>& fields) {
  fields.clear();
  size_t start = 2;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(':', start), text.size());
    uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + end, value);
    // Event values may be negative: keep them as their two's complement.
    if (ec != std::errc() || ptr != text.data() + end) {
      int64_t signedValue = 0;
      const auto [p2, e2] = std::from_chars(text.data() + start, text.data() + end, signedValue);
      if (e2 != std::errc() || p2 != text.data() + end) return false;
      value = static_cast<uint64_t>(signedValue);
    }
    fields.push_back(value);
    start = end + 1;
  }
  return true;
}

class Checker {
 public:
  explicit Checker(const Header& header) : rules_(header) {}
  void record(std::string_view text, uint64_t lineNumber, KernelCheck& out);

 private:
  bool acceptable(char type, const std::vector<uint64_t>& f) const;
  KernelRules rules_;
  std::vector<uint64_t> fields_;
};

bool Checker::acceptable(char type, const std::vector<uint64_t>& f) const {
  const auto locationOk = [&](size_t at) {
    return rules_.check(f[at], f[at + 1], f[at + 2], f[at + 3]) == Refusal::None;
  };
  const auto signedAt = [&](size_t at) { return static_cast<int64_t>(f[at]) >= 0; };
  if (type == '1') return f.size() == 7 && locationOk(0) && signedAt(4) && signedAt(6);
  if (type == '2') return f.size() >= 5 && f.size() % 2 == 1 && locationOk(0) && signedAt(4);
  if (f.size() != 14 || !locationOk(0) || !locationOk(6)) return false;
  return signedAt(4) && signedAt(5) && signedAt(10) && signedAt(11);
}

void Checker::record(std::string_view text, uint64_t lineNumber, KernelCheck& out) {
  if (text.size() < 2 || text[1] != ':' || text[0] < '1' || text[0] > '4') return;
  const int index = text[0] - '1';
  if (text[0] == '4') {
    ++out.accepted[index];  // ignored by paraver-kernel, never refused
    return;
  }
  const bool parsed = splitFields(text, fields_);
  if (parsed && fields_.size() >= 5) out.highestCpu = std::max(out.highestCpu, fields_[0]);
  if (parsed && text[0] == '3' && fields_.size() == 14)
    out.highestCpu = std::max(out.highestCpu, fields_[6]);
  if (!parsed || !acceptable(text[0], fields_)) {
    if (out.refusedTotal() == 0)
      out.firstRefused = "line " + std::to_string(lineNumber) + ": " + std::string(text);
    ++out.refused[index];
    return;
  }
  ++out.accepted[index];
  if (fields_[4] > out.endTime) ++out.recordsAfterEnd;
  if (text[0] == '3' && fields_[4] <= out.endTime) ++out.sendsCounted;
}

}  // namespace

KernelCheck checkLikeParaverKernel(const std::string& prvPath) {
  LineReader lines(prvPath);
  std::string_view line;
  if (!lines.next(line)) throw InputError(prvPath, "line 1", "empty file");
  const Header header = parseHeader(line, prvPath);
  KernelCheck out;
  out.endTime = header.endTime;
  out.declaredCpus = KernelRules(header).totalCpus();
  Checker checker(header);
  while (lines.next(line)) checker.record(line, lines.lineNumber(), out);
  return out;
}

}  // namespace mtf::paraver
