// nlr_bench TRACE...: Table I of the loop-nest paper for NLR, on any readable traces.
//
// Every trace is first read into memory (compact events), then replayed:
//   replay     rebuild each Event and touch its fields (the baseline: no analysis);
//   signatures replay + signature extraction + hash-consing (no recognition), with the
//              options of the nlr row (every event, canonical order inside MPI calls);
//   nlr        replay + the whole NLR sink (signatures and recognition), every event;
//   core       the recognizer alone on the pre-computed symbol streams.
// Times are the best of three runs; "x replay" is the ratio to the baseline of the same
// run, events/s are per core (the benchmark is single-threaded).
// nlr_bench --profile-nlr RUNS TRACE: only replay and nlr, RUNS times, best processor
// time of each (to profile with perf, or compare two builds on a loaded machine).
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nlr/loop_print.hpp"
#include "nlr/nlr_sink.hpp"
#include "registry/registry.hpp"

namespace {

using namespace mtf;
using Clock = std::chrono::steady_clock;

constexpr size_t kInlineFields = 6;  // enough for every field a signature looks at

struct CompactEvent {
  EventKind kind;
  uint8_t fieldCount;
  LocationId location;
  Tick time;
  uint64_t fields[kInlineFields];
};

class Recorder : public TraceSink {
 public:
  void begin(const Definitions& d) override { defs = d; }
  void event(const Event& e) override {
    CompactEvent c{e.kind,
                   static_cast<uint8_t>(std::min(e.fields.size(), kInlineFields)),
                   e.location,
                   e.time,
                   {}};
    std::copy_n(e.fields.begin(), c.fieldCount, c.fields);
    events.push_back(c);
  }
  void end() override {}
  Definitions defs;
  std::vector<CompactEvent> events;
};

template <typename PerEvent>
void replay(const std::vector<CompactEvent>& events, PerEvent perEvent) {
  Event e;
  for (const CompactEvent& c : events) {
    e.kind = c.kind;
    e.location = c.location;
    e.time = c.time;
    e.fields.assign(c.fields, c.fields + c.fieldCount);
    perEvent(e);
  }
}

template <typename Run>
double bestSeconds(int runs, Run run) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

// Processor time of `run` (not the time other processes had the core).
template <typename Run>
double cpuSeconds(Run run) {
  const std::clock_t start = std::clock();
  run();
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

size_t gzippedSize(const std::string& text) {
  uLongf size = compressBound(text.size());
  std::vector<Bytef> out(size);
  compress2(out.data(), &size, reinterpret_cast<const Bytef*>(text.data()), text.size(), 9);
  return size;
}

std::string loopText(const std::vector<nlr::LocationLoops>& all, const Definitions& defs,
                     const nlr::SignatureOptions& s) {
  const nlr::EventNamer namer(defs, {s.fields});
  std::ostringstream out;
  for (const auto& l : all) nlr::printLoopProgram(out, l, namer);
  return out.str();
}

// Best time of signature extraction and hash-consing alone, every event.
double timeSignatures(const Recorder& rec, const nlr::SignatureOptions& options, uint64_t& sink) {
  return bestSeconds(3, [&] {
    nlr::SignatureContext ranks(rec.defs);
    using State = std::pair<nlr::SignatureExtractor, nlr::SignatureTable>;
    std::unordered_map<LocationId, std::unique_ptr<State>> states;
    State* last = nullptr;
    LocationId lastLocation = kUndefinedId;
    replay(rec.events, [&](const Event& e) {
      if (!last || e.location != lastLocation) {
        std::unique_ptr<State>& slot = states[e.location];
        if (!slot)
          slot = std::make_unique<State>(nlr::SignatureExtractor(options, ranks, e.location),
                                         nlr::SignatureTable());
        last = slot.get();
        lastLocation = e.location;
      }
      for (const nlr::Signature& sig : last->first.release(e)) sink += last->second.intern(sig);
    });
  });
}

void benchTrace(const std::string& path) {
  Recorder rec;
  openTrace(path, {})->read(rec);
  const auto& events = rec.events;
  uint64_t sink = 0;
  // Every event, with the events inside one MPI call in canonical order.
  nlr::SignatureOptions all;
  all.canonicalCallOrder = true;
  const double replaySeconds = bestSeconds(3, [&] {
    replay(events, [&](const Event& e) { sink += e.fields.empty() ? e.time : e.fields[0]; });
  });
  const double signatureSeconds = timeSignatures(rec, all, sink);
  std::vector<nlr::LocationLoops> loops, mpi;
  const double nlrSeconds = bestSeconds(3, [&] {
    nlr::NlrSink nlrSink({}, all);
    nlrSink.begin(rec.defs);
    replay(events, [&](const Event& e) { nlrSink.event(e); });
    nlrSink.end();
    loops = nlrSink.results();
  });
  nlr::SignatureOptions compact;
  compact.selection = nlr::EventSelection::Communication;
  compact.canonicalCallOrder = true;
  nlr::NlrSink mpiSink({}, compact);
  mpiSink.begin(rec.defs);
  replay(events, [&](const Event& e) { mpiSink.event(e); });
  mpiSink.end();
  mpi = mpiSink.results();

  uint64_t symbols = 0;
  std::vector<std::vector<uint32_t>> streams;
  for (const auto& l : loops) {
    streams.emplace_back();
    nlr::expand(l.model, [&](uint32_t s) { streams.back().push_back(s); });
    symbols += streams.back().size();
  }
  const double coreSeconds = bestSeconds(3, [&] {
    for (const auto& stream : streams) {
      nlr::Nlr core;
      for (uint32_t s : stream) core.push(s);
      sink += core.emittedSize();
    }
  });
  uint64_t elements = 0;
  for (const auto& l : loops) elements += nlr::printedElements(l.model);
  const std::string text = loopText(loops, rec.defs, all);
  const std::string mpiText = loopText(mpi, rec.defs, compact);
  const double n = static_cast<double>(events.size());
  std::printf("%-34s %10zu %4zu %9.4f %6.2f %7.1f %7.1f %9llu %9zu %7zu %8zu %6zu\n",
              path.substr(path.find_last_of('/') + 1).c_str(), events.size(), loops.size(),
              nlrSeconds, nlrSeconds / replaySeconds, n / nlrSeconds / 1e6,
              static_cast<double>(symbols) / coreSeconds / 1e6,
              static_cast<unsigned long long>(elements), text.size(), gzippedSize(text),
              mpiText.size(), gzippedSize(mpiText));
  std::printf("%-34s replay %.4fs, signatures %.4fs (x%.2f replay)%s\n", "", replaySeconds,
              signatureSeconds, signatureSeconds / replaySeconds, sink == 42 ? "!" : "");
}

// Only the replay and the whole NLR sink, `runs` times each, interleaved: the best
// processor time of each (for profiling with perf, and for comparing builds on a noisy
// machine; the table above gives elapsed times).
void profileNlr(const std::string& path, int runs) {
  Recorder rec;
  openTrace(path, {})->read(rec);
  nlr::SignatureOptions all;
  all.canonicalCallOrder = true;
  uint64_t sink = 0;
  double replayBest = 1e30, nlrBest = 1e30;
  for (int i = 0; i < runs; ++i) {
    replayBest = std::min(replayBest, cpuSeconds([&] {
                            replay(rec.events, [&](const Event& e) {
                              sink += e.fields.empty() ? e.time : e.fields[0];
                            });
                          }));
    nlrBest = std::min(nlrBest, cpuSeconds([&] {
                         nlr::NlrSink nlrSink({}, all);
                         nlrSink.begin(rec.defs);
                         replay(rec.events, [&](const Event& e) { nlrSink.event(e); });
                         nlrSink.end();
                         for (const auto& l : nlrSink.results())
                           sink += nlr::printedElements(l.model);
                       }));
  }
  const double n = static_cast<double>(rec.events.size());
  std::printf("%s: cpu time: replay %.4fs, nlr %.4fs (x%.2f replay, %.1f M events/s)%s\n",
              path.c_str(), replayBest, nlrBest, nlrBest / replayBest, n / nlrBest / 1e6,
              sink == 42 ? "!" : "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: nlr_bench TRACE...\n       nlr_bench --profile-nlr RUNS TRACE\n");
    return 1;
  }
  if (std::string(argv[1]) == "--profile-nlr" && argc == 4) {
    profileNlr(argv[3], std::atoi(argv[2]));
    return 0;
  }
  std::printf("%-34s %10s %4s %9s %6s %7s %7s %9s %9s %7s %8s %6s\n", "trace", "events", "locs",
              "nlr s", "xreply", "Mev/s", "core", "elements", "text B", "gz B", "mpi B", "mpi gz");
  for (int i = 1; i < argc; ++i) {
    try {
      benchTrace(argv[i]);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", argv[i], e.what());
      return 2;
    }
  }
  return 0;
}
