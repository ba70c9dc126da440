#include "filter/iteration_cut.hpp"

#include <algorithm>

#include "filter/time_spec.hpp"
#include "nlr/signature.hpp"
#include "program/comm_matrix.hpp"
#include "program/extract.hpp"
#include "program/model_annotation.hpp"

namespace mtf::filter {

IterationRange parseIterations(const std::string& text, const std::string& option) {
  const size_t dash = text.find('-');
  const std::string a = text.substr(0, dash);
  const std::string b = dash == std::string::npos ? a : text.substr(dash + 1);
  auto number = [](const std::string& s) {
    return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!number(a) || !number(b))
    throw TimeSpecError(option + " " + text + ": expected iterations such as 3 or 3-7");
  IterationRange r{std::stoull(a), std::stoull(b)};
  if (r.first < 1 || r.last < r.first)
    throw TimeSpecError(option + " " + text + ": iterations count from 1, the first first");
  return r;
}

std::map<LocationId, PositionRange> iterationPositions(const program::ProgramModel& model,
                                                       const std::string& path,
                                                       const IterationRange& range) {
  const program::Construct& loop = [&]() -> const program::Construct& {
    try {
      return program::constructAt(model, path);
    } catch (const UsageError& e) {
      throw TimeSpecError(e.what());  // a path the model has not: bad like any cut value
    }
  }();
  if (!loop.isLoop()) throw TimeSpecError("--construct " + path + " is not a loop");
  std::vector<uint32_t> all(model.processes.size());
  for (uint32_t p = 0; p < all.size(); ++p) all[p] = p;
  // One occurrence per run of the loop on each process, in process then loop order.
  const std::vector<program::Occurrence> runs = program::occurrencesOf(model, path, all);
  std::map<uint32_t, std::vector<const program::Occurrence*>> byProcess;
  for (const program::Occurrence& o : runs) byProcess[o.process].push_back(&o);
  std::map<LocationId, PositionRange> out;
  for (const auto& entry : byProcess) {
    const uint32_t process = entry.first;
    const std::vector<const program::Occurrence*>& own = entry.second;  // lambdas: no bindings
    const uint64_t total = own.size() * loop.count;
    if (range.last > total)
      throw TimeSpecError("--iterations " + std::to_string(range.first) + "-" +
                          std::to_string(range.last) + ": loop " + path + " has " +
                          std::to_string(total) + " iteration(s)");
    const uint64_t length = (own[0]->last - own[0]->first + 1) / loop.count;  // per iteration
    auto startOf = [&](uint64_t k) {  // position of iteration k's first event, k from 0
      return own[k / loop.count]->first + (k % loop.count) * length;
    };
    out[model.processes[process].location] = {startOf(range.first - 1),
                                              startOf(range.last - 1) + length - 1};
  }
  return out;
}

struct IterationContext {
  explicit IterationContext(const Definitions& defs) : signatures(defs) {}
  nlr::SignatureContext signatures;
};

namespace {

// The split in the gap between two consecutive model events of a rank: right after the
// first event that brings the call depth to its lowest in the gap, or right after the
// gap's first model event if none goes below its depth.
struct GapSplit {
  bool open = false, done = false;
  uint64_t minDepth = 0;
  uint64_t splitIndex = 0;  // the first event after the split
  void openAt(uint64_t index, uint64_t depth) {
    open = true;
    minDepth = depth;
    splitIndex = index;
  }
  void step(uint64_t index, uint64_t depthAfter) {
    if (open && depthAfter < minDepth) {
      minDepth = depthAfter;
      splitIndex = index + 1;
    }
  }
  void close() {
    if (open) done = true;
    open = false;
  }
};

nlr::SignatureOptions traceOrder() {
  nlr::SignatureOptions o = program::modelSignatureOptions();
  o.canonicalCallOrder = false;  // the count of model events at a call's end is the same
  return o;
}

}  // namespace

struct IterationBounds::Rank {
  Rank(const nlr::SignatureContext& c, LocationId l, PositionRange p)
      : extractor(traceOrder(), c, l), positions(p) {
    if (p.first == 0) start.openAt(0, 0);  // no model event before: from the stream's start
  }
  nlr::SignatureExtractor extractor;
  PositionRange positions;
  uint64_t position = 0, index = 0, depth = 0;
  GapSplit start, end;

  void take(const Event& e) {
    const bool model = extractor.signatureOf(e).has_value();
    if (model && position == positions.first) start.close();
    if (model && position == positions.last + 1) end.close();
    if (e.kind == EventKind::Enter) ++depth;
    if (e.kind == EventKind::Leave && depth > 0) --depth;
    start.step(index, depth);
    end.step(index, depth);
    if (model) {
      if (position + 1 == positions.first) start.openAt(index + 1, depth);
      if (position == positions.last) end.openAt(index + 1, depth);
      ++position;
    }
    ++index;
  }
};

IterationBounds::IterationBounds(std::map<LocationId, PositionRange> positions)
    : positions_(std::move(positions)) {}
IterationBounds::~IterationBounds() = default;

void IterationBounds::begin(const Definitions& defs) {
  context_ = std::make_unique<IterationContext>(defs);
  ranks_.clear();
  for (const auto& [location, p] : positions_)
    ranks_[location] = std::make_unique<Rank>(context_->signatures, location, p);
}

void IterationBounds::event(const Event& e) {
  const auto rank = ranks_.find(e.location);
  if (rank != ranks_.end()) rank->second->take(e);
}

void IterationBounds::end() {
  for (auto& [location, rank] : ranks_) rank->end.close();  // the gap runs to the end
}

std::map<LocationId, EventRange> IterationBounds::ranges(const std::string& trace) const {
  std::map<LocationId, EventRange> out;
  for (const auto& [location, rank] : ranks_) {
    if (!rank->start.done || !rank->end.done)
      throw InputError(trace, placeLocation(location),
                       "has " + std::to_string(rank->position) +
                           " events of the program model, fewer than the model says");
    out[location] = {rank->start.splitIndex, rank->end.splitIndex};
  }
  return out;
}

CutRule::Side IterationRule::sideOf(const Event& e, uint64_t index) {
  const auto range = ranges_.find(e.location);
  if (range == ranges_.end() || index < range->second.first) return Side::Before;
  return index < range->second.end ? Side::Inside : Side::After;
}

}  // namespace mtf::filter
