#include "gen/generator.hpp"

#include <cmath>
#include <string>

#include "gen/kernels.hpp"
#include "gen/rank_emitter.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::gen {

namespace {

std::string gridText(const GenOptions& o) {
  return std::to_string(o.gridX) + "x" + std::to_string(o.gridY);
}

// Ground truth for tests of analyses, kept in the trace (OTF2: archive properties).
void describeRun(Definitions& defs, const GenOptions& o) {
  defs.info.format = "mtf-gen";
  defs.info.creator = "mtf-gen " MTF_GEN_VERSION;
  auto& p = defs.info.properties;
  p["gen.kernel"] = std::string(kernelName(o.kernel));
  p["gen.ranks"] = std::to_string(o.ranks);
  p["gen.iterations"] = std::to_string(o.iterations);
  p["gen.seed"] = std::to_string(o.seed);
  if (o.kernel == Kernel::Wavefront || o.kernel == Kernel::Halo) p["gen.grid"] = gridText(o);
  if (o.kernel == Kernel::Wavefront) {
    p["gen.inner"] = std::to_string(o.inner);
    p["gen.allreduce_every"] = std::to_string(o.allreduceEvery);
  }
  if (o.noise > 0) p["gen.noise"] = std::to_string(o.noise);
  if (o.splitComms) p["gen.split_comms"] = "yes";
  if (o.selfMessages) p["gen.self_messages"] = "yes";
}

GenContext makeContext(Definitions& defs, const GenOptions& options) {
  describeRun(defs, options);
  defs.clock.resolution = options.resolution;
  GenContext c;
  c.options = options;
  c.scale = TickScale(options.resolution);
  DefinitionBuilder builder(defs);
  const uint64_t node = builder.systemTreeNode("node0", "node");
  std::vector<LocationId> rankLocations(options.ranks);
  for (uint32_t r = 0; r < options.ranks; ++r) {
    const uint64_t process = builder.locationGroup("MPI Rank " + std::to_string(r), node);
    builder.location(r, "Master thread", process);
    rankLocations[r] = r;
  }
  c.world = defineMpiWorld(builder, rankLocations);
  c.comms = CommLayout(builder, options, c.world);
  for (size_t i = 0; i < kRegionCount; ++i) {
    const RegionSpec& spec = regionSpec(static_cast<RegionId>(i));
    c.regions[i] = builder.region(spec.name, spec.role, spec.paradigm);
  }
  c.programName = builder.string(std::string(kernelName(options.kernel)));
  // Probability -> threshold on 64 random bits; computed once, so runs stay deterministic.
  c.noiseThreshold =
      options.noise >= 1.0 ? ~uint64_t{0} : static_cast<uint64_t>(std::ldexp(options.noise, 64));
  return c;
}

using KernelFunction = void (*)(RankEmitter&);

KernelFunction kernelFunction(Kernel k) {
  switch (k) {
    case Kernel::Wavefront:
      return generateWavefront;
    case Kernel::Ring:
      return generateRing;
    case Kernel::Butterfly:
      return generateButterfly;
    case Kernel::Halo:
      return generateHalo;
    case Kernel::MasterWorker:
      return generateMasterWorker;
  }
  return generateWavefront;
}

// The trace's length for the clock properties, known before any event is written: the
// end of the last global step, which every rank computes alike. A dry run of rank 0 into
// a sink that drops everything finds it (1/ranks of the generation's work).
Tick runLength(const GenContext& context, KernelFunction kernel) {
  struct DropSink : TraceSink {
    void begin(const Definitions&) override {}
    void event(const Event&) override {}
    void end() override {}
  } drop;
  RankEmitter emitter(drop, context, 0);
  kernel(emitter);
  return emitter.runEnd();
}

}  // namespace

uint64_t generate(GenOptions options, TraceSink& sink) {
  resolveAndValidate(options);
  Definitions defs;
  const GenContext context = makeContext(defs, options);
  const KernelFunction kernel = kernelFunction(options.kernel);
  defs.clock.traceLength = runLength(context, kernel);
  sink.begin(defs);
  uint64_t events = 0;
  for (uint32_t rank = 0; rank < options.ranks; ++rank) {
    RankEmitter emitter(sink, context, rank);
    kernel(emitter);
    events += emitter.eventCount();
  }
  sink.end();
  return events;
}

}  // namespace mtf::gen
