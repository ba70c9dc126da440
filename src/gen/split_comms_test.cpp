// --split-comms: the same program on sub-communicators. Every kernel keeps its event count
// and its messages between the same world ranks; the events name peers by their ranks in
// the sub-communicators, which differ from the world ranks.
#include <gtest/gtest.h>

#include "gen/gen_options.hpp"
#include "gen/generator.hpp"
#include "gen/trace_check.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::gen {
namespace {

GenOptions optionsFor(Kernel kernel, uint32_t ranks, bool split) {
  GenOptions o;
  o.kernel = kernel;
  o.ranks = ranks;
  o.iterations = 3;
  o.splitComms = split;
  return o;
}

// Counts the point-to-point events off MPI_COMM_WORLD and those whose rank field is not
// the peer's world rank.
class CommCounter : public TraceSink {
 public:
  void begin(const Definitions& d) override {
    defs = d;
    ranks_.emplace(defs);
  }
  void event(const Event& e) override {
    if (!isMpiPointToPoint(e.kind)) return;
    const Ref comm = static_cast<Ref>(e.fields[1]);
    const DefRecord* def = defs.find(DefKind::Comm, comm);
    if (def && defs.string(def->field("name")) != "MPI_COMM_WORLD") ++offWorld;
    const int64_t world = ranks_->worldRankOf(comm, e.fields[0], e.location);
    if (world < 0) ++unresolved;
    if (world != static_cast<int64_t>(e.fields[0])) ++localDiffers;
  }
  void end() override {}
  Definitions defs;
  uint64_t offWorld = 0, localDiffers = 0, unresolved = 0;

 private:
  std::optional<RankMap> ranks_;
};

class SplitCommsKernel : public ::testing::TestWithParam<Kernel> {};

TEST_P(SplitCommsKernel, SameMessagesBetweenTheSameWorldRanks) {
  const uint32_t ranks = GetParam() == Kernel::Butterfly ? 8 : 12;
  GenOptions split = optionsFor(GetParam(), ranks, true);
  TraceCheckSink onWorld, onSplit;
  const uint64_t worldEvents = generate(optionsFor(GetParam(), ranks, false), onWorld);
  const uint64_t splitEvents = generate(split, onSplit);
  EXPECT_EQ(splitEvents, worldEvents);
  resolveAndValidate(split);
  EXPECT_EQ(splitEvents, expectedEventCount(split));
  EXPECT_TRUE(onSplit.report().clean()) << onSplit.report().summary();
  EXPECT_GT(onSplit.report().messages, 0u);
  EXPECT_EQ(onSplit.report().messagesPerPair, onWorld.report().messagesPerPair);
}

TEST_P(SplitCommsKernel, PeersAreNamedByTheirRankInTheSubCommunicator) {
  CommCounter counter;
  generate(optionsFor(GetParam(), GetParam() == Kernel::Butterfly ? 8 : 12, true), counter);
  EXPECT_GT(counter.offWorld, 0u);
  EXPECT_GT(counter.localDiffers, 0u);
  EXPECT_EQ(counter.unresolved, 0u);
  EXPECT_EQ(counter.defs.info.properties.at("gen.split_comms"), "yes");
  CommCounter plain;
  generate(optionsFor(GetParam(), GetParam() == Kernel::Butterfly ? 8 : 12, false), plain);
  EXPECT_EQ(plain.offWorld, 0u);
  EXPECT_EQ(plain.localDiffers, 0u);
  EXPECT_EQ(plain.defs.info.properties.count("gen.split_comms"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, SplitCommsKernel,
                         ::testing::Values(Kernel::Wavefront, Kernel::Ring, Kernel::Butterfly,
                                           Kernel::Halo, Kernel::MasterWorker));

// --self-messages: one message of every rank to itself on MPI_COMM_SELF, 10 events more
// per rank, as the formula says; its rank 0 resolves to the sender.
TEST_P(SplitCommsKernel, SelfMessagesGoToTheRankItself) {
  GenOptions o = optionsFor(GetParam(), GetParam() == Kernel::Butterfly ? 8 : 12, true);
  o.selfMessages = true;
  TraceCheckSink check;
  CommCounter counter;
  const uint64_t events = generate(o, check);
  generate(o, counter);
  resolveAndValidate(o);
  EXPECT_EQ(events, expectedEventCount(o));
  EXPECT_EQ(events, kernelEventCount(o) + kSelfMessageEvents * o.ranks);
  EXPECT_TRUE(check.report().clean()) << check.report().summary();
  for (uint64_t r = 0; r < o.ranks; ++r) EXPECT_EQ(check.report().messagesPerPair.at({r, r}), 1u);
  EXPECT_EQ(counter.unresolved, 0u);
  EXPECT_EQ(counter.defs.info.properties.at("gen.self_messages"), "yes");
}

// A grid of one column: each row communicator has one rank, defined as Score-P defines a
// split's singletons (over a COMM_SELF group); the messages all go on the column.
TEST(SplitComms, SingletonRowsAreSelfCommunicators) {
  GenOptions o = optionsFor(Kernel::Halo, 0, true);
  o.gridX = 1;
  o.gridY = 4;
  CommCounter counter;
  TraceCheckSink check;
  generate(o, counter);
  generate(o, check);
  EXPECT_TRUE(check.report().clean()) << check.report().summary();
  const RankMap ranks(counter.defs);
  size_t selfComms = 0;
  for (const DefRecord& r : counter.defs.records())
    if (r.kind == DefKind::Comm && ranks.isSelf(static_cast<Ref>(r.fields[0]))) ++selfComms;
  EXPECT_EQ(selfComms, 4u);
  EXPECT_GT(counter.offWorld, 0u);
}

}  // namespace
}  // namespace mtf::gen
