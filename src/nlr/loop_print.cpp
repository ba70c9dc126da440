#include "nlr/loop_print.hpp"

#include <iomanip>
#include <sstream>

#include "model/rank_ranges.hpp"

namespace mtf::nlr {

namespace {

constexpr uint64_t kUndefinedRoot = 0xFFFFFFFFu;  // OTF2_UNDEFINED_UINT32

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The MPI call a point-to-point event is named after; printed only when the enclosing
// call is another one (e.g. a receive completed in MPI_Wait).
std::string_view eponymousCall(EventKind k) {
  switch (k) {
    case EventKind::MpiSend:
      return "MPI_Send";
    case EventKind::MpiIsend:
      return "MPI_Isend";
    case EventKind::MpiRecv:
      return "MPI_Recv";
    case EventKind::MpiIrecv:
      return "MPI_Irecv";
    default:
      return "";
  }
}

std::string_view pointToPointWord(EventKind k) {
  switch (k) {
    case EventKind::MpiSend:
      return "send";
    case EventKind::MpiIsend:
      return "isend";
    case EventKind::MpiRecv:
      return "recv";
    default:
      return "irecv";
  }
}

class TextTreeWriter : public LoopTreeWriter {
 public:
  TextTreeWriter(std::ostream& out, const EventNamer& namer, const LocationLoops& loops)
      : out_(out), namer_(namer), loops_(loops) {}
  void beginLoop(uint64_t iterations, unsigned depth) override {
    indent(depth);
    out_ << "for i" << depth << " = 1 to " << iterations << '\n';
  }
  void endLoop(unsigned depth) override {
    indent(depth);
    out_ << "done\n";
  }
  void event(uint32_t, const Signature& s, unsigned depth) override {
    indent(depth);
    out_ << namer_.describe(s, loops_.worldRank, loops_.location) << '\n';
  }

 private:
  void indent(unsigned depth) { out_ << std::string(2 * depth, ' '); }
  std::ostream& out_;
  const EventNamer& namer_;
  const LocationLoops& loops_;
};

class JsonTreeWriter : public LoopTreeWriter {
 public:
  JsonTreeWriter(std::ostream& out, const EventNamer& namer, const LocationLoops& loops)
      : out_(out), namer_(namer), loops_(loops) {}
  void beginLoop(uint64_t iterations, unsigned) override {
    separate();
    out_ << "{\"loop\":" << iterations << ",\"body\":[";
    first_ = true;
  }
  void endLoop(unsigned) override {
    out_ << "]}";
    first_ = false;
  }
  void event(uint32_t symbol, const Signature& s, unsigned) override {
    separate();
    out_ << "{\"event\":" << jsonString(namer_.describe(s, loops_.worldRank, loops_.location))
         << ",\"symbol\":" << symbol << ",\"kind\":" << jsonString(std::string(nameOf(s.kind)));
    if (s.region != kUndefinedRef)
      out_ << ",\"region\":" << jsonString(namer_.regionName(s.region));
    if (isMpiPointToPoint(s.kind)) {
      out_ << ",\"partner\":" << s.partner
           << ",\"partner_relative\":" << (s.partnerRelative ? "true" : "false")
           << ",\"tag\":" << s.tag;
    }
    if (s.comm != kUndefinedRef) out_ << ",\"comm\":" << jsonString(namer_.commText(s.comm));
    out_ << ",\"size\":" << s.size << "}";
    first_ = false;
  }

 private:
  void separate() {
    if (!first_) out_ << ',';
  }
  std::ostream& out_;
  const EventNamer& namer_;
  const LocationLoops& loops_;
  bool first_ = true;
};

}  // namespace

EventNamer::EventNamer(const Definitions& defs, const PrintOptions& options)
    : defs_(defs), options_(options), ranks_(defs) {}

std::string EventNamer::regionName(Ref region) const {
  const std::string_view name = defs_.regionName(region);
  return name.empty() ? "region" + std::to_string(region) : std::string(name);
}

std::string EventNamer::metricName(Ref metric) const {
  // OTF2 gives classes and instances one ref space.
  const DefRecord* record = defs_.find(DefKind::MetricClass, metric);
  if (!record) record = defs_.find(DefKind::MetricInstance, metric);
  std::vector<uint64_t> members;
  if (record) defs_.metricMembersOf(*record, members);
  std::string names;
  for (const uint64_t ref : members) {
    const DefRecord* member = defs_.find(DefKind::MetricMember, ref);
    const std::string_view name = member ? defs_.string(member->fields[1]) : std::string_view{};
    if (name.empty()) return "metric" + std::to_string(metric);
    names += (names.empty() ? "" : ",") + std::string(name);
  }
  return names.empty() ? "metric" + std::to_string(metric) : names;
}

std::string EventNamer::commText(Ref comm) const {
  if (const std::vector<int64_t>* members = ranks_.members(comm)) return rankRanges(*members);
  if (const DefRecord* def = defs_.find(DefKind::Comm, comm)) {
    const std::string_view name = defs_.string(def->field("name"));
    if (!name.empty()) return std::string(name);
  }
  return "comm" + std::to_string(comm);
}

std::string EventNamer::partnerText(const Signature& s, int64_t ownRank) const {
  if (!(options_.fields & kFieldPartner)) return "*";
  if (s.partnerRelative && ownRank >= 0) return std::to_string(ownRank + s.partner);
  return std::to_string(s.partner);
}

std::string EventNamer::pointToPoint(const Signature& s, const std::string& self,
                                     int64_t ownRank) const {
  // Figure 3 order: sender, verb, receiver ("0 send 1", "1 recv 0").
  const std::string peer = partnerText(s, ownRank);
  std::string line = isSend(s.kind)
                         ? self + " " + std::string(pointToPointWord(s.kind)) + " " + peer
                         : peer + " " + std::string(pointToPointWord(s.kind)) + " " + self;
  line += (options_.fields & kFieldTag) ? " tag" + std::to_string(s.tag) : " tag*";
  if ((options_.fields & kFieldSize) && s.size != 0) line += " " + std::to_string(s.size) + "B";
  if (s.region != kUndefinedRef && regionName(s.region) != eponymousCall(s.kind))
    line += " in " + regionName(s.region);
  return line;
}

std::string EventNamer::collective(const Signature& s, const std::string& self) const {
  std::string line = self + " sync " + (s.region != kUndefinedRef ? regionName(s.region) : "?");
  if (s.comm != kUndefinedRef) line += " " + commText(s.comm);
  const RegionRole role = defs_.region(s.region).role;
  if ((role == RegionRole::CollOne2All || role == RegionRole::CollAll2One) &&
      (options_.fields & kFieldPartner) && static_cast<uint64_t>(s.partner) != kUndefinedRoot)
    line += " root" + std::to_string(s.partner);
  if ((options_.fields & kFieldSize) && (s.size != 0 || s.size2 != 0))
    line += " " + std::to_string(s.size) + "B/" + std::to_string(s.size2) + "B";
  return line;
}

std::string EventNamer::describe(const Signature& s, int64_t ownRank, LocationId location) const {
  const std::string self = ownRank >= 0 ? std::to_string(ownRank) : "L" + std::to_string(location);
  if (isMpiPointToPoint(s.kind)) return pointToPoint(s, self, ownRank);
  if (s.kind == EventKind::MpiCollectiveEnd || s.kind == EventKind::NonBlockingCollectiveComplete)
    return collective(s, self);
  if (s.kind == EventKind::Enter) return self + " call " + regionName(s.region);
  if (s.kind == EventKind::Leave) return self + " return " + regionName(s.region);
  std::string line = self + " " + std::string(nameOf(s.kind));
  // A metric by its name; a state by its value, 0 (Paraver's idle) included.
  if (s.kind == EventKind::Metric) return line + " " + metricName(static_cast<Ref>(s.ident));
  if (s.ident != 0 || s.kind == EventKind::State) line += " " + std::to_string(s.ident);
  return line;
}

void printLoopProgram(std::ostream& out, const LocationLoops& loops, const EventNamer& namer) {
  out << "# location " << loops.location;
  if (!loops.name.empty()) out << " \"" << loops.name << "\"";
  if (loops.worldRank >= 0) out << " rank " << loops.worldRank;
  out << ": " << loops.model.eventsIn << " events, " << printedElements(loops.model)
      << " elements\n";
  TextTreeWriter writer(out, namer, loops);
  writeLoopTree(loops.model, writer);
}

void printLoopsJson(std::ostream& out, const std::vector<LocationLoops>& all,
                    const EventNamer& namer) {
  out << "{\"locations\":[";
  for (size_t i = 0; i < all.size(); ++i) {
    const LocationLoops& l = all[i];
    out << (i ? ",\n" : "\n") << "{\"location\":" << l.location
        << ",\"name\":" << jsonString(l.name) << ",\"rank\":" << l.worldRank
        << ",\"events_read\":" << l.eventsRead << ",\"events_in\":" << l.model.eventsIn
        << ",\"elements\":" << printedElements(l.model) << ",\"model\":[";
    JsonTreeWriter writer(out, namer, l);
    writeLoopTree(l.model, writer);
    out << "]}";
  }
  out << "\n]}\n";
}

void printLoopStats(std::ostream& out, const std::vector<LocationLoops>& all) {
  out << std::left << std::setw(12) << "location" << std::right << std::setw(6) << "rank"
      << std::setw(14) << "events-in" << std::setw(12) << "elements" << std::setw(10) << "bodies"
      << std::setw(12) << "ratio" << '\n';
  uint64_t events = 0, elements = 0, bodies = 0;
  for (const LocationLoops& l : all) {
    const uint64_t e = printedElements(l.model);
    events += l.model.eventsIn;
    elements += e;
    bodies += l.model.bodies.size();
    out << std::left << std::setw(12) << l.location << std::right << std::setw(6) << l.worldRank
        << std::setw(14) << l.model.eventsIn << std::setw(12) << e << std::setw(10)
        << l.model.bodies.size() << std::setw(12) << std::fixed << std::setprecision(1)
        << (e ? static_cast<double>(l.model.eventsIn) / static_cast<double>(e) : 0.0) << '\n';
  }
  out << std::left << std::setw(12) << "total" << std::right << std::setw(6) << all.size()
      << std::setw(14) << events << std::setw(12) << elements << std::setw(10) << bodies
      << std::setw(12) << std::fixed << std::setprecision(1)
      << (elements ? static_cast<double>(events) / static_cast<double>(elements) : 0.0) << '\n';
}

}  // namespace mtf::nlr
