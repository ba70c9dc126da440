#include "program/comm_matrix.hpp"

#include <sstream>

#include "util/error.hpp"

namespace mtf::program {

namespace {

void addScaled(CommMatrix& into, const CommMatrix& from, uint64_t factor) {
  for (const auto& [cell, v] : from) {
    MatrixCell& slot = into[cell];
    slot.messages += times(v.messages, factor);
    slot.bytes += times(v.bytes, factor);
  }
}

int64_t rankOrUnknown(const ProgramModel& model, uint32_t p) {
  return model.processes.at(p).worldRank;
}

}  // namespace

CommMatrix matrixOf(const Construct& c, const ProgramModel& model) {
  CommMatrix m;
  if (c.isLoop()) {
    addScaled(m, matrixOf(c.body, model), c.count);
    return m;
  }
  if (!isSend(c.signature.kind)) return m;
  for (uint32_t p : c.procs) {
    const int64_t self = rankOrUnknown(model, p);
    const int64_t peer = partnerRank(c.signature, c.form, self);
    MatrixCell& cell = m[{self, peer}];
    ++cell.messages;
    cell.bytes += c.signature.size;
  }
  return m;
}

CommMatrix matrixOf(const System& s, const ProgramModel& model) {
  CommMatrix m;
  for (const Construct& c : s) addScaled(m, matrixOf(c, model), 1);
  return m;
}

const Construct& constructAt(const ProgramModel& model, const std::string& path,
                             uint64_t* occurrences) {
  uint64_t around = 1;
  const System* system = &model.constructs;
  const Construct* found = nullptr;
  std::istringstream in(path);
  std::string part, done;
  while (std::getline(in, part, '.')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("--construct: '" + path + "' is not a position such as 2.1");
    if (found && !found->isLoop())
      throw UsageError("--construct: " + done + " is an event, it has no body");
    const unsigned long index = std::stoul(part);
    if (index >= system->size())
      throw UsageError("--construct: no construct " + (done.empty() ? "" : done + ".") + part +
                       " in the model (see mtf model --positions)");
    if (found) around = times(around, found->count);
    found = &(*system)[index];
    system = &found->body;
    done += (done.empty() ? "" : ".") + part;
  }
  if (!found) throw UsageError("--construct: empty position");
  if (occurrences) *occurrences = around;
  return *found;
}

CommMatrix matrixAt(const ProgramModel& model, const std::string& path) {
  uint64_t occurrences = 1;
  const Construct& c = constructAt(model, path, &occurrences);
  CommMatrix m;
  addScaled(m, matrixOf(c, model), occurrences);
  return m;
}

}  // namespace mtf::program
