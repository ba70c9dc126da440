#include "program/extract.hpp"

#include <algorithm>

#include "program/comm_matrix.hpp"
#include "util/error.hpp"

namespace mtf::program {

namespace {

bool covers(const Construct& c, uint32_t p) {
  return std::binary_search(c.procs.begin(), c.procs.end(), p);
}

// Events of process p in one whole construct.
uint64_t eventsOf(const Construct& c, uint32_t p) {
  if (!covers(c, p)) return 0;
  if (!c.isLoop()) return 1;
  uint64_t body = 0;
  for (const Construct& b : c.body) body += eventsOf(b, p);
  return times(c.count, body);
}

struct Around {
  uint64_t count = 0, stride = 0;  // a loop around the construct: events per iteration
};

void enumerate(const std::vector<Around>& loops, size_t level, uint64_t at, uint64_t length,
               Occurrence& current, std::vector<Occurrence>& out) {
  if (level == loops.size()) {
    current.first = at;
    current.last = at + length - 1;
    out.push_back(current);
    return;
  }
  for (uint64_t i = 0; i < loops[level].count; ++i) {
    current.indices.push_back(i + 1);
    enumerate(loops, level + 1, at + i * loops[level].stride, length, current, out);
    current.indices.pop_back();
  }
}

std::vector<size_t> parsePath(const std::string& path) {
  std::vector<size_t> out;
  size_t from = 0;
  while (from <= path.size()) {
    const size_t dot = std::min(path.find('.', from), path.size());
    out.push_back(std::stoul(path.substr(from, dot - from)));
    from = dot + 1;
  }
  return out;
}

}  // namespace

std::vector<Occurrence> occurrencesOf(const ProgramModel& model, const std::string& path,
                                      const std::vector<uint32_t>& processes) {
  const Construct& target = constructAt(model, path);  // validates the path
  const std::vector<size_t> steps = parsePath(path);
  std::vector<Occurrence> out;
  for (uint32_t p : processes) {
    if (!covers(target, p)) continue;
    std::vector<Around> loops;
    uint64_t base = 0;
    const System* system = &model.constructs;
    for (size_t level = 0; level < steps.size(); ++level) {
      for (size_t m = 0; m < steps[level]; ++m) base += eventsOf((*system)[m], p);
      const Construct& c = (*system)[steps[level]];
      if (level + 1 < steps.size()) {
        uint64_t body = 0;
        for (const Construct& b : c.body) body += eventsOf(b, p);
        loops.push_back({c.count, body});
        system = &c.body;
      }
    }
    Occurrence current;
    current.process = p;
    enumerate(loops, 0, base, eventsOf(target, p), current, out);
  }
  return out;
}

// One process's event stream: the canonical extractor gives the model's order, a second
// one in trace order gives each event's own signature, to find its time again.
struct ExtractSink::Stream {
  Stream(const nlr::SignatureOptions& o, const nlr::SignatureContext& c, LocationId l)
      : canonical(o, c, l), traceOrder(exact(o), c, l) {}
  static nlr::SignatureOptions exact(nlr::SignatureOptions o) {
    o.canonicalCallOrder = false;
    return o;
  }
  struct Pending {
    nlr::Signature signature;
    uint64_t time, size;
  };
  nlr::SignatureExtractor canonical, traceOrder;
  std::vector<Pending> pending;  // events of the current MPI call, not released yet
  uint64_t position = 0;         // released so far
  std::vector<size_t> wanted;    // occurrences of this process, by first position
  size_t next = 0;               // first occurrence not finished
};

ExtractSink::ExtractSink(const ProgramModel& model, std::vector<Occurrence>& occurrences,
                         const nlr::SignatureOptions& options)
    : model_(model), occurrences_(occurrences), options_(options) {}

ExtractSink::~ExtractSink() = default;

void ExtractSink::begin(const Definitions& defs) {
  context_ = std::make_unique<nlr::SignatureContext>(defs);
  streams_.clear();
  processOf_.clear();
  for (uint32_t p = 0; p < model_.processes.size(); ++p) {
    const LocationId l = model_.processes[p].location;
    streams_.push_back(std::make_unique<Stream>(options_, *context_, l));
    processOf_[l] = p;
  }
  for (size_t i = 0; i < occurrences_.size(); ++i)
    streams_[occurrences_[i].process]->wanted.push_back(i);
}

void ExtractSink::event(const Event& e) {
  const auto process = processOf_.find(e.location);
  if (process == processOf_.end()) return;
  Stream& s = *streams_[process->second];
  if (s.next >= s.wanted.size()) return;
  if (std::optional<nlr::Signature> own = s.traceOrder.signatureOf(e)) {
    const bool valued = isMpiPointToPoint(e.kind) || isCollectiveKind(e.kind);
    s.pending.push_back({*own, e.time, valued && e.fields.size() > 3 ? e.field(3) : 0});
  }
  for (const nlr::Signature& released : s.canonical.release(e)) take(s, released, e.location);
}

void ExtractSink::end() {
  for (size_t p = 0; p < streams_.size(); ++p) {
    Stream& s = *streams_[p];
    for (const nlr::Signature& released : s.canonical.releaseHeld())
      take(s, released, model_.processes[p].location);
  }
}

// The event at the stream's next position: its value goes to the occurrence being read.
void ExtractSink::take(Stream& s, const nlr::Signature& released, LocationId location) {
  auto match = std::find_if(s.pending.begin(), s.pending.end(),
                            [&](const Stream::Pending& p) { return p.signature == released; });
  if (match == s.pending.end())
    throw Error(ExitCode::BadInput, "extract: location " + std::to_string(location) +
                                        ": an event released in no order the model knows");
  const Stream::Pending value = *match;
  s.pending.erase(match);
  if (s.next < s.wanted.size()) {
    Occurrence& o = occurrences_[s.wanted[s.next]];
    if (o.first == s.position) o.firstTime = value.time, o.size = value.size;
    if (o.last == s.position) {
      o.lastTime = value.time;
      o.found = true;
      ++s.next;
    }
  }
  ++s.position;
}

}  // namespace mtf::program
