// NLR on whole traces: generated ones (mtf-gen's engine, directly and through OTF2) and
// the real traces of /work/shared/traces, read through the registry.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <sstream>
#include <unordered_map>

#include "../../tests/data/real_traces.hpp"
#include "gen/generator.hpp"
#include "nlr/loop_print.hpp"
#include "nlr/nlr_sink.hpp"
#include "registry/registry.hpp"
#include "util/safe_output.hpp"

namespace mtf::nlr {
namespace {

namespace fs = std::filesystem;

SignatureOptions programView() {
  SignatureOptions o;
  o.selection = EventSelection::Communication;
  o.canonicalCallOrder = true;
  return o;
}

gen::GenOptions wavefront(uint32_t iterations, uint32_t inner) {
  gen::GenOptions g;
  g.ranks = 16;
  g.iterations = iterations;
  g.inner = inner;
  return g;
}

struct Acceptance {
  Definitions defs;
  std::vector<LocationLoops> loops;
};

const Acceptance& acceptance() {
  static const Acceptance result = [] {
    NlrSink sink({}, programView());
    gen::generate(wavefront(249, 160), sink);
    sink.end();
    return Acceptance{sink.definitions(), sink.results()};
  }();
  return result;
}
const std::vector<LocationLoops>& acceptanceLoops() {
  return acceptance().loops;
}

// Outer loop of `iterations` at top[1] (after the setup broadcast), with the two sweeps
// as loops of `inner` first in its body and `exchange` plain events after them; the
// final collectives after it.
void expectAcceptanceShape(const LoopModel& m, uint64_t iterations, uint64_t inner,
                           size_t exchange) {
  ASSERT_EQ(m.top.size(), 4u);
  EXPECT_FALSE(isLoop(m.top[0]));
  ASSERT_TRUE(isLoop(m.top[1]));
  EXPECT_FALSE(isLoop(m.top[2]));
  EXPECT_FALSE(isLoop(m.top[3]));
  EXPECT_EQ(countOf(m.top[1]), iterations);
  const std::vector<ElementKey>& body = m.bodies[bodyOf(m.top[1])];
  ASSERT_EQ(body.size(), 2 + exchange);
  for (size_t i = 0; i < body.size(); ++i) {
    EXPECT_EQ(isLoop(body[i]), i < 2);
    if (i < 2) {
      EXPECT_EQ(countOf(body[i]), inner);
    }
  }
}

TEST(NlrTrace, GeneratedWavefrontRankZeroIsOneOuterLoopOfTwoSweeps) {
  const LocationLoops& rank0 = acceptanceLoops().at(0);
  EXPECT_EQ(rank0.worldRank, 0);
  // Exchange: 2 isends, 2 irecvs, then the allreduce.
  expectAcceptanceShape(rank0.model, 249, 160, 5);
  EXPECT_EQ(expandedLength(rank0.model), rank0.model.eventsIn);
}

TEST(NlrTrace, GeneratedWavefrontMiddleRanksHaveTheSameShapeWithTheirPartners) {
  const EventNamer namer(acceptance().defs, {});
  for (int rank : {5, 6, 9, 10}) {
    const LocationLoops& loops = acceptanceLoops().at(rank);
    expectAcceptanceShape(loops.model, 249, 160, 9);  // four neighbours
    std::ostringstream text;
    printLoopProgram(text, loops, namer);
    const std::string self = std::to_string(rank);
    EXPECT_NE(text.str().find("    " + self + " send " + std::to_string(rank + 1) + " tag1"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("    " + std::to_string(rank - 4) + " recv " + self),
              std::string::npos)
        << text.str();
  }
}

TEST(NlrTrace, ThroughOtf2TheModelsAreTheSame) {
  const FormatEntry* otf2 = formatByName("otf2");
  ASSERT_TRUE(otf2 && otf2->openWriter && otf2->openReader);
  const fs::path dir = fs::path(MTF_BINARY_DIR) / "nlr_trace_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "wavefront.otf2";
  NlrSink direct({}, programView());
  {
    auto writer = otf2->openWriter(path, {});
    TeeSink both({writer.get(), &direct});
    gen::generate(wavefront(12, 10), both);
  }
  NlrSink read({}, programView());
  openTrace(path, {})->read(read);
  const auto a = direct.results(), b = read.results();
  ASSERT_EQ(a.size(), 16u);
  ASSERT_EQ(b.size(), 16u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].model, b[i].model) << "rank " << i;
    EXPECT_EQ(b[i].worldRank, static_cast<int64_t>(i));
  }
  expectAcceptanceShape(b[0].model, 12, 10, 5);
  fs::remove_all(dir);
}

// Collects every location's exact signature stream (every event, trace order).
class SignatureStreams : public TraceSink {
 public:
  void begin(const Definitions& d) override { context_ = std::make_unique<SignatureContext>(d); }
  void event(const Event& e) override {
    auto it = extractors_.find(e.location);
    if (it == extractors_.end())
      it = extractors_.emplace(e.location, SignatureExtractor({}, *context_, e.location)).first;
    if (auto s = it->second.signatureOf(e)) streams[e.location].push_back(*s);
  }
  void end() override {}
  std::unordered_map<LocationId, std::vector<Signature>> streams;

 private:
  std::unique_ptr<SignatureContext> context_;
  std::unordered_map<LocationId, SignatureExtractor> extractors_;
};

void expectModelsRegenerateTheTrace(const fs::path& trace) {
  NlrSink sink({}, {});
  openTrace(trace, {})->read(sink);
  SignatureStreams streams;
  openTrace(trace, {})->read(streams);
  const auto all = sink.results();
  ASSERT_FALSE(all.empty()) << trace;
  ASSERT_EQ(all.size(), streams.streams.size());
  for (const LocationLoops& l : all) {
    std::vector<Signature> expanded;
    expand(l.model, [&](uint32_t s) { expanded.push_back(l.model.signatures[s]); });
    EXPECT_EQ(expanded, streams.streams.at(l.location)) << trace << " location " << l.location;
    EXPECT_LE(printedElements(l.model), l.model.eventsIn);
  }
}

TEST(NlrTrace, EveryRealOtf2TraceGetsAModelThatRegeneratesIt) {
  for (const char* name :
       {"pipit-ping-pong", "pipit-ping-pong-papi", "sst-macro-mpi", "fastotf2-mi300"})
    expectModelsRegenerateTheTrace(fs::path(MTF_DATA_DIR) / "otf2" / name / "traces.otf2");
}

TEST(NlrTrace, PingPongIsALoopOnceSizesAreIgnored) {
  // The message size doubles at every step: only without sizes is it a loop.
  SignatureOptions noSize = programView();
  noSize.fields &= ~kFieldSize;
  NlrSink sink({}, noSize);
  openTrace(fs::path(MTF_DATA_DIR) / "otf2/pipit-ping-pong/traces.otf2", {})->read(sink);
  for (const LocationLoops& l : sink.results()) {
    bool hasLoop = false;
    for (ElementKey k : l.model.top) hasLoop |= isLoop(k);
    EXPECT_TRUE(hasLoop) << "location " << l.location;
    EXPECT_LT(printedElements(l.model), l.model.eventsIn);
  }
}

// The program model's nests derived from the stored loops' stream equal those of NLR over
// the communication view, on the generated wavefront and on every real trace.
void expectDerivedEqualsCommunicationView(const std::function<void(TraceSink&)>& read,
                                          const std::string& what) {
  NlrSink stored({}, {}), direct({}, programView());
  stored.deriveCommunicationStream();
  TeeSink both({&stored, &direct});
  read(both);
  const auto derived = stored.derivedResults(), expected = direct.results();
  ASSERT_EQ(derived.size(), expected.size()) << what;
  for (size_t i = 0; i < derived.size(); ++i) {
    EXPECT_EQ(derived[i].location, expected[i].location) << what;
    EXPECT_EQ(derived[i].worldRank, expected[i].worldRank) << what;
    EXPECT_EQ(derived[i].model, expected[i].model) << what << " location " << i;
  }
}

TEST(NlrTrace, DerivedCommunicationNestsEqualTheCommunicationView) {
  expectDerivedEqualsCommunicationView(
      [](TraceSink& sink) { gen::generate(wavefront(20, 12), sink); }, "wavefront");
  for (const std::string& path : test::realTraces()) {
    const fs::path trace = fs::path(MTF_DATA_DIR) / path;
    expectDerivedEqualsCommunicationView([&](TraceSink& sink) { openTrace(trace, {})->read(sink); },
                                         path);
  }
}

TEST(NlrTrace, OtherFormatsThroughTheRegistry) {
  const std::pair<const char*, const char*> traces[] = {
      {"paraver", "paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv"},
      {"paraver", "paraver/paraver-kernel-qsort/qsort_beo3.prv"},
      {"tau", "tau/opencl-l5"},
      {"tau", "tau/opencl-l9"}};
  for (const auto& [format, path] : traces) {
    const FormatEntry* f = formatByName(format);
    if (!f || !f->openReader) {
      GTEST_SKIP() << format << " reader not registered";
    }
    expectModelsRegenerateTheTrace(fs::path(MTF_DATA_DIR) / path);
  }
}

}  // namespace
}  // namespace mtf::nlr
