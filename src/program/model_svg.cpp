#include "program/model_svg.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

#include "program/model_print.hpp"

namespace mtf::program {

namespace {

constexpr double kEvent = 16, kPad = 8, kLeft = 90, kTop = 40;
const char* const kTagColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

struct Lanes {
  std::vector<uint32_t> laneOf;  // process -> lane
  std::vector<ProcSet> members;  // lane -> processes
};

void collectIds(const System& s, uint32_t& next, std::vector<std::vector<uint32_t>>& classes) {
  for (const Construct& c : s) {
    const uint32_t id = next++;
    for (uint32_t p : c.procs) classes[p].push_back(id);
    collectIds(c.body, next, classes);
  }
}

// The processes the model's constructs cover, as (process, unit): a unit is an MPI
// process (a location group: the rank's threads, GPU streams and metric locations share
// it), in the order of the processes' first locations.
std::vector<std::pair<uint32_t, uint32_t>> coveredUnits(const ProgramModel& model,
                                                        const Definitions& defs) {
  std::vector<bool> covered(model.processes.size(), false);
  std::vector<const System*> open{&model.constructs};
  while (!open.empty()) {
    const System* s = open.back();
    open.pop_back();
    for (const Construct& c : *s) {
      for (uint32_t p : c.procs) covered[p] = true;
      if (c.isLoop()) open.push_back(&c.body);
    }
  }
  const std::unordered_map<LocationId, uint64_t> groupOf = processGroups(defs);
  std::map<std::pair<bool, uint64_t>, uint32_t> unitOf;
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t p = 0; p < model.processes.size(); ++p) {
    if (!covered[p]) continue;
    const LocationId l = model.processes[p].location;
    const auto g = groupOf.find(l);
    const std::pair<bool, uint64_t> key{g != groupOf.end(), g != groupOf.end() ? g->second : l};
    const auto [it, fresh] = unitOf.emplace(key, static_cast<uint32_t>(unitOf.size()));
    out.emplace_back(p, it->second);
  }
  return out;
}

// A lane per MPI process up to 32; beyond, runs of consecutive processes covered by the
// same constructs share a lane, and at most 48 lanes are kept (equal runs of processes).
// Locations no construct covers get no lane.
Lanes makeLanes(const ProgramModel& model, const Definitions& defs) {
  const auto units = coveredUnits(model, defs);
  uint32_t unitCount = 0;
  for (const auto& [p, unit] : units) unitCount = std::max(unitCount, unit + 1);
  std::vector<uint32_t> laneOfUnit(unitCount, 0);
  if (unitCount <= 32) {
    for (uint32_t u = 0; u < unitCount; ++u) laneOfUnit[u] = u;
  } else {
    std::vector<std::vector<uint32_t>> classes(model.processes.size()), unitClasses(unitCount);
    uint32_t next = 0;
    collectIds(model.constructs, next, classes);
    for (const auto& [p, unit] : units)
      unitClasses[unit].insert(unitClasses[unit].end(), classes[p].begin(), classes[p].end());
    uint32_t lane = 0;
    for (uint32_t u = 1; u < unitCount; ++u)
      laneOfUnit[u] = unitClasses[u] == unitClasses[u - 1] ? lane : ++lane;
    if (lane + 1 > 48) {
      const uint32_t per = (unitCount + 31) / 32;
      for (uint32_t u = 0; u < unitCount; ++u) laneOfUnit[u] = u / per;
    }
  }
  Lanes lanes{std::vector<uint32_t>(model.processes.size(), 0), {}};
  for (const auto& [p, unit] : units) {
    const uint32_t lane = laneOfUnit[unit];
    lanes.laneOf[p] = lane;
    if (lane >= lanes.members.size()) lanes.members.resize(lane + 1);
    lanes.members[lane].push_back(p);
  }
  return lanes;
}

// A lane's name: its MPI ranks, or the locations of a lane without one.
std::string laneName(const ProgramModel& model, const ProcSet& members) {
  ProcSet ranked;
  for (uint32_t p : members)
    if (model.processes[p].worldRank >= 0) ranked.push_back(p);
  return rankText(model, ranked.empty() ? members : ranked);
}

struct Arrow {
  size_t send, recv;
  uint32_t fromLane, toLane, tag;
};

struct Layout {
  std::vector<double> x;  // relative to the system's start
  std::vector<double> width;
  std::vector<Arrow> arrows;
  double total = 0;
};

class Drawer {
 public:
  Drawer(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer)
      : out_(out), model_(model), namer_(namer), lanes_(makeLanes(model, namer.definitions())) {}
  void run();

 private:
  const Layout& layout(const System& s);
  std::vector<Arrow> arrowsOf(const System& s) const;
  std::set<uint32_t> lanesOf(const Construct& c) const {
    std::set<uint32_t> out;
    for (uint32_t p : c.procs) out.insert(lanes_.laneOf[p]);
    return out;
  }
  double laneY(uint32_t lane) const { return kTop + laneGap_ * (lane + 0.5); }
  double boxPad(unsigned depth) const { return 5 + 11.0 * (maxDepth_ - depth); }
  void draw(const System& s, double x0, unsigned depth);
  void drawConstruct(const Construct& c, double x, unsigned depth);

  std::ostream& out_;
  const ProgramModel& model_;
  const nlr::EventNamer& namer_;
  Lanes lanes_;
  std::unordered_map<const System*, Layout> layouts_;
  unsigned maxDepth_ = 0;
  double laneGap_ = 0;
};

unsigned depthOf(const System& s) {
  unsigned d = 0;
  for (const Construct& c : s)
    if (c.isLoop()) d = std::max(d, 1 + depthOf(c.body));
  return d;
}

// Sends matched to receives inside one system, by (sender, receiver, tag, comm).
std::vector<Arrow> Drawer::arrowsOf(const System& s) const {
  std::map<std::tuple<int64_t, int64_t, uint32_t, Ref>, size_t> sends;
  auto rank = [&](uint32_t p) { return model_.processes[p].worldRank; };
  for (size_t i = 0; i < s.size(); ++i) {
    const nlr::Signature& g = s[i].signature;
    if (s[i].isLoop() || !isSend(g.kind) || !g.partnerRelative) continue;
    for (uint32_t p : s[i].procs)
      sends[{rank(p), partnerRank(g, s[i].form, rank(p)), g.tag, g.comm}] = i;
  }
  std::map<int64_t, uint32_t> laneOfRank;
  for (uint32_t p = 0; p < model_.processes.size(); ++p)
    if (rank(p) >= 0) laneOfRank[rank(p)] = lanes_.laneOf[p];
  std::set<std::tuple<size_t, size_t, uint32_t, uint32_t>> seen;
  std::vector<Arrow> out;
  for (size_t i = 0; i < s.size(); ++i) {
    const nlr::Signature& g = s[i].signature;
    if (s[i].isLoop() || !isRecv(g.kind) || !g.partnerRelative) continue;
    for (uint32_t p : s[i].procs) {
      const int64_t peer = partnerRank(g, s[i].form, rank(p));
      const auto it = sends.find({peer, rank(p), g.tag, g.comm});
      if (it == sends.end()) continue;
      const uint32_t from = laneOfRank[peer], to = lanes_.laneOf[p];
      if (seen.insert({it->second, i, from, to}).second)
        out.push_back({it->second, i, from, to, g.tag});
    }
  }
  return out;
}

// Longest paths over each lane's order and the arrows (without the arrows if they make
// a cycle, which a body of one iteration should not).
const Layout& Drawer::layout(const System& s) {
  Layout& l = layouts_[&s];
  l.arrows = arrowsOf(s);
  for (const Construct& c : s)
    l.width.push_back(c.isLoop() ? layout(c.body).total + 2 * kPad : kEvent);
  for (bool withArrows : {true, false}) {
    std::vector<std::vector<size_t>> next(s.size());
    std::vector<size_t> indegree(s.size(), 0);
    std::map<uint32_t, size_t> last;
    for (size_t i = 0; i < s.size(); ++i) {
      for (uint32_t lane : lanesOf(s[i])) {
        if (auto it = last.find(lane); it != last.end())
          next[it->second].push_back(i), ++indegree[i];
        last[lane] = i;
      }
    }
    if (withArrows)
      for (const Arrow& a : l.arrows)
        if (a.send != a.recv) next[a.send].push_back(a.recv), ++indegree[a.recv];
    l.x.assign(s.size(), 0);
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t i = 0; i < s.size(); ++i)
      if (indegree[i] == 0) ready.push(i);
    size_t placed = 0;
    while (!ready.empty()) {
      const size_t i = ready.top();
      ready.pop();
      ++placed;
      for (size_t j : next[i]) {
        l.x[j] = std::max(l.x[j], l.x[i] + l.width[i] + (s[i].isLoop() ? 4 : 0));
        if (--indegree[j] == 0) ready.push(j);
      }
    }
    if (placed == s.size()) break;
  }
  for (size_t i = 0; i < s.size(); ++i) l.total = std::max(l.total, l.x[i] + l.width[i]);
  return l;
}

void Drawer::drawConstruct(const Construct& c, double x, unsigned depth) {
  const std::set<uint32_t> lanes = lanesOf(c);
  const double top = laneY(*lanes.begin()), bottom = laneY(*lanes.rbegin());
  const std::string title =
      escaped(constructText(c, model_, namer_, depth) + " [" + rankText(model_, c.procs) + "]");
  if (c.isLoop()) {
    const int grey = std::max(150, 235 - 20 * static_cast<int>(depth));
    out_ << "<g><title>" << title << "</title><rect x=\"" << x << "\" y=\"" << top - boxPad(depth)
         << "\" width=\"" << layouts_.at(&c.body).total + 2 * kPad << "\" height=\""
         << bottom - top + 2 * boxPad(depth) << "\" fill=\"rgb(" << grey << ',' << grey << ','
         << grey << ")\" stroke=\"#555\"/>\n<text x=\"" << x + 2 << "\" y=\""
         << top - boxPad(depth) + 9 << "\" class=\"count\">" << c.count << "</text></g>\n";
    draw(c.body, x + kPad, depth + 1);
    return;
  }
  const double cx = x + kEvent / 2;
  if (c.type == ConstructType::Collective) {
    out_ << "<line x1=\"" << cx << "\" y1=\"" << top - 8 << "\" x2=\"" << cx << "\" y2=\""
         << bottom + 8 << "\" stroke=\"#000\" stroke-dasharray=\"3,2\"><title>" << title
         << "</title></line>\n";
    return;
  }
  for (uint32_t lane : lanes)
    out_ << "<circle cx=\"" << cx << "\" cy=\"" << laneY(lane) << "\" r=\"2.5\" fill=\""
         << (isSend(c.signature.kind) ? "#000" : "#fff") << "\" stroke=\"#000\"><title>" << title
         << "</title></circle>\n";
}

void Drawer::draw(const System& s, double x0, unsigned depth) {
  const Layout& l = layouts_.at(&s);
  for (size_t i = 0; i < s.size(); ++i) drawConstruct(s[i], x0 + l.x[i], depth);
  for (const Arrow& a : l.arrows) {
    if (a.fromLane == a.toLane) continue;
    out_ << "<line x1=\"" << x0 + l.x[a.send] + kEvent / 2 << "\" y1=\"" << laneY(a.fromLane)
         << "\" x2=\"" << x0 + l.x[a.recv] + kEvent / 2 << "\" y2=\"" << laneY(a.toLane)
         << "\" stroke=\"" << kTagColours[a.tag % 8] << "\" marker-end=\"url(#arrow)\"/>\n";
  }
}

void Drawer::run() {
  maxDepth_ = depthOf(model_.constructs);
  laneGap_ = 2 * boxPad(0) + 6;
  const std::string heading =
      "program model: " + std::to_string(rankCount(model_, namer_.definitions())) + " processes, " +
      std::to_string(model_.eventsIn) + " events";
  // The heading is 12px sans-serif: at most about 7.5px a character, never clipped.
  const double width = std::max(kLeft + layout(model_.constructs).total + 20,
                                10 + 7.5 * static_cast<double>(heading.size()));
  const double height = kTop + laneGap_ * lanes_.members.size() + 20;
  out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
       << "\" viewBox=\"0 0 " << width << ' ' << height
       << "\" font-family=\"sans-serif\" font-size=\"10\">\n"
       << "<defs><marker id=\"arrow\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" "
          "markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#333\"/></marker>"
       << "<style>.count{font-weight:bold;font-size:9px}</style></defs>\n"
       << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
       << "<text x=\"4\" y=\"16\" font-size=\"12\">" << escaped(heading) << "</text>\n";
  for (size_t lane = 0; lane < lanes_.members.size(); ++lane) {
    out_ << "<text x=\"4\" y=\"" << laneY(lane) + 3 << "\">"
         << escaped(laneName(model_, lanes_.members[lane])) << "</text><line x1=\"" << kLeft - 6
         << "\" y1=\"" << laneY(lane) << "\" x2=\"" << width - 10 << "\" y2=\"" << laneY(lane)
         << "\" stroke=\"#bbb\"/>\n";
  }
  draw(model_.constructs, kLeft, 0);
  out_ << "</svg>\n";
}

}  // namespace

void writeModelSvg(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer) {
  Drawer(out, model, namer).run();
}

}  // namespace mtf::program
