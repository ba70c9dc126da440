// Through the registry: generated MPI traces written as TAU read back with every send
// matched, and TAU -> OTF2 gives the same messages as the generator's own OTF2 output.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "converters/tau/tau_test_util.hpp"
#include "gen/generator.hpp"
#include "gen/trace_check.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::tau {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

// (sender world rank, receiver world rank, tag, length) of every send, as a multiset.
class MessageSink : public TraceSink {
 public:
  void begin(const Definitions& defs) override { ranks_ = std::make_unique<RankMap>(defs); }
  void event(const Event& e) override {
    if (!isSend(e.kind)) return;
    const LocationId to =
        ranks_->locationOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
    sends.emplace(ranks_->worldRank(e.location), ranks_->worldRank(to), e.fields[2], e.fields[3]);
  }
  void end() override {}
  std::multiset<std::tuple<int64_t, int64_t, uint64_t, uint64_t>> sends;

 private:
  std::unique_ptr<RankMap> ranks_;
};

void write(const std::string& format, const fs::path& out, TraceSource& source) {
  auto writer = formatByName(format)->openWriter(out, WriteOptions{});
  source.read(*writer);
}

class GeneratedSource : public TraceSource {
 public:
  explicit GeneratedSource(gen::GenOptions o) : options_(o) {}
  // The writers only need begin(); this runs the generator once to capture them.
  const Definitions& definitions() override {
    struct DefsOnly : TraceSink {
      Definitions* out;
      void begin(const Definitions& d) override { *out = d; }
      void event(const Event&) override {}
      void end() override {}
    } capture;
    capture.out = &defs_;
    gen::generate(options_, capture);
    return defs_;
  }
  void read(TraceSink& sink) override { gen::generate(options_, sink); }

 private:
  gen::GenOptions options_;
  Definitions defs_;
};

class TauThroughRegistry : public ::testing::TestWithParam<gen::Kernel> {};

TEST_P(TauThroughRegistry, MessagesSurviveTauAndMatchTheOtf2Output) {
  ScratchDir scratch("registry");
  gen::GenOptions o;
  o.kernel = GetParam();
  o.ranks = 8;
  o.iterations = 3;
  o.noise = 0.05;
  GeneratedSource generated(o);
  write("otf2", scratch.path() / "gen.otf2", generated);
  write("tau", scratch.path() / "gen_tau", generated);

  // The TAU output is found by content and every send matches a receive.
  auto tau = openTrace(scratch.path() / "gen_tau", {});
  gen::TraceCheckSink check;
  MessageSink tauMessages;
  TeeSink both{&check, &tauMessages};
  tau->read(both);
  EXPECT_GT(check.report().messages, 0u);
  EXPECT_EQ(check.report().unmatchedSends, 0u) << check.report().summary();
  EXPECT_EQ(check.report().unmatchedReceives, 0u) << check.report().summary();
  EXPECT_EQ(check.report().sizeMismatches, 0u);

  // TAU -> OTF2 holds the same messages as the generator's OTF2 output.
  auto tauAgain = openTrace(scratch.path() / "gen_tau", {});
  write("otf2", scratch.path() / "from_tau.otf2", *tauAgain);
  MessageSink fromTau, fromGenerator;
  openTrace(scratch.path() / "from_tau.otf2", {})->read(fromTau);
  openTrace(scratch.path() / "gen.otf2", {})->read(fromGenerator);
  EXPECT_FALSE(fromGenerator.sends.empty());
  EXPECT_EQ(fromTau.sends, fromGenerator.sends);
  EXPECT_EQ(tauMessages.sends, fromGenerator.sends);
}

INSTANTIATE_TEST_SUITE_P(Kernels, TauThroughRegistry,
                         ::testing::Values(gen::Kernel::Wavefront, gen::Kernel::Ring,
                                           gen::Kernel::Butterfly, gen::Kernel::Halo,
                                           gen::Kernel::MasterWorker));

TEST(TauRegistry, RealTracesAreFoundByContent) {
  EXPECT_EQ(detectInputFormat(testing::kL5).name, "tau");
  EXPECT_EQ(detectInputFormat(testing::kL9 / "tau.trc").name, "tau");
  EXPECT_EQ(formatForOutput("out.tau").name, "tau");
}

}  // namespace
}  // namespace mtf::tau
