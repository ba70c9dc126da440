#include "program/model_print.hpp"

#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

namespace mtf::program {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The event as `mtf loops` prints it for one rank; for several, the own rank is `r` and
// a relative partner `r+k`.
std::string eventText(const Construct& c, const ProgramModel& model, const nlr::EventNamer& namer) {
  const Process& first = model.processes.at(c.procs.front());
  const std::string line = namer.describe(c.signature, first.worldRank, first.location);
  if (c.procs.size() == 1) return line;
  std::vector<std::string> w = words(line);
  if (w.empty()) return line;
  if (isMpiPointToPoint(c.signature.kind) && w.size() >= 3) {
    const std::string expression = partnerExpression(c.signature, c.form);
    const std::string peer = expression.empty() ? w[isSend(c.signature.kind) ? 2 : 0] : expression;
    w[0] = isSend(c.signature.kind) ? "r" : peer;
    w[2] = isSend(c.signature.kind) ? peer : "r";
  } else {
    w[0] = "r";
  }
  std::string out;
  for (const std::string& s : w) out += (out.empty() ? "" : " ") + s;
  return out;
}

void printSystem(std::ostream& out, const System& s, const ProgramModel& model,
                 const nlr::EventNamer& namer, bool positions, unsigned depth,
                 const std::string& prefix) {
  for (size_t i = 0; i < s.size(); ++i) {
    const Construct& c = s[i];
    const std::string position = prefix + std::to_string(i);
    out << std::string(2 * depth, ' ');
    if (positions) out << position << ' ';
    out << constructText(c, model, namer, depth) << " [" << rankText(model, c.procs) << ']';
    if (!c.note.empty()) out << "  # per process: " << c.note;
    out << '\n';
    if (!c.isLoop()) continue;
    printSystem(out, c.body, model, namer, positions, depth + 1, position + ".");
    out << std::string(2 * depth, ' ') << "done\n";
  }
}

nlohmann::json jsonSystem(const System& s, const ProgramModel& model, const nlr::EventNamer& namer,
                          const std::string& prefix) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < s.size(); ++i) {
    const Construct& c = s[i];
    const std::string position = prefix + std::to_string(i);
    nlohmann::json j{
        {"type", typeName(c.type)}, {"ranks", rankText(model, c.procs)}, {"position", position}};
    if (c.isLoop()) {
      j["count"] = c.count;
      j["body"] = jsonSystem(c.body, model, namer, position + ".");
    } else {
      j["event"] = eventText(c, model, namer);
      j["kind"] = std::string(nameOf(c.signature.kind));
      if (isMpiPointToPoint(c.signature.kind)) {
        j["partner"] = c.signature.partner;
        j["partner_relative"] = c.signature.partnerRelative;
        j["partner_form"] = formName(c.form, c.signature.partnerRelative);
        if (c.signature.partnerRelative)
          j["partner_expression"] = partnerExpression(c.signature, c.form);
        if (c.form.kind == RankForm::Kind::Torus)
          j["grid"] = std::vector<uint32_t>(c.form.extent.begin(),
                                            c.form.extent.begin() + c.form.dimensions);
        j["tag"] = c.signature.tag;
      }
      j["size"] = c.signature.size;
    }
    if (!c.note.empty()) j["note"] = c.note;
    list.push_back(std::move(j));
  }
  return list;
}

}  // namespace

std::string constructText(const Construct& c, const ProgramModel& model,
                          const nlr::EventNamer& namer, unsigned depth) {
  if (c.isLoop()) return "for i" + std::to_string(depth) + " = 1 to " + std::to_string(c.count);
  return eventText(c, model, namer);
}

void printModelText(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer,
                    bool positions) {
  const size_t ranks = rankCount(model, namer.definitions());
  out << "# program model: " << ranks << " processes, ";
  if (ranks != model.processes.size()) out << model.processes.size() << " locations, ";
  out << model.eventsIn << " events, " << constructCount(model.constructs) << " constructs";
  if (model.processes.size() > 1)
    out << " (" << singleProcessCount(model.constructs) << " on a single process)";
  out << '\n';
  printSystem(out, model.constructs, model, namer, positions, 0, "");
}

void printModelJson(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer) {
  const nlohmann::json j{{"processes", rankCount(model, namer.definitions())},
                         {"locations", model.processes.size()},
                         {"events_in", model.eventsIn},
                         {"single_process_constructs", singleProcessCount(model.constructs)},
                         {"constructs", jsonSystem(model.constructs, model, namer, "")}};
  out << j.dump() << '\n';
}

}  // namespace mtf::program
