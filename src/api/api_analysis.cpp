// Trace::info, stats, loops and patterns: the analyses of `mtf info`, `stats`, `loops`
// and `patterns` behind the public API.
#include <sstream>

#include "api/api_impl.hpp"
#include "api/stored_loops.hpp"
#include "cli/info_collector.hpp"
#include "compaction/compactor.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "nlr/loop_print.hpp"
#include "patterns/analysis.hpp"

namespace mtf::api {
namespace {

CompactionFigures publicFigures(const compaction::CompactionFigures& f) {
  return {f.events,   f.treeNodes,      f.treeEdges,     f.dagNodes,
          f.dagEdges, f.messagesBefore, f.messagesAfter, f.compactionRate()};
}

Stats statsOf(const compaction::CompactModel& m, const mtfbin::ArchiveSizes& sizes, bool file) {
  Stats s;
  s.total = publicFigures(m.totalFigures());
  for (size_t i = 0; i < m.locations.size(); ++i)
    s.locations.emplace_back(m.locations[i].location, publicFigures(m.figures(i)));
  s.sizesFromFile = file;
  s.structureBytes = sizes.structure;
  s.valueBytes = sizes.values;
  s.definitionBytes = sizes.definitions;
  s.indexBytes = sizes.index;
  s.fileBytes = sizes.file;
  return s;
}

// Builds the public loop program with the same names `mtf loops` prints.
class ElementTreeWriter : public nlr::LoopTreeWriter {
 public:
  ElementTreeWriter(const nlr::EventNamer& namer, const nlr::LocationLoops& loops,
                    std::vector<LoopElement>& top)
      : namer_(namer), loops_(loops), open_{&top} {}
  void beginLoop(uint64_t iterations, unsigned) override {
    LoopElement loop;
    loop.loop = true;
    loop.iterations = iterations;
    open_.back()->push_back(std::move(loop));
    open_.push_back(&open_.back()->back().body);
  }
  void endLoop(unsigned) override { open_.pop_back(); }
  void event(uint32_t, const nlr::Signature& s, unsigned) override {
    LoopElement e;
    e.event = namer_.describe(s, loops_.worldRank, loops_.location);
    open_.back()->push_back(std::move(e));
  }

 private:
  const nlr::EventNamer& namer_;
  const nlr::LocationLoops& loops_;
  std::vector<std::vector<LoopElement>*> open_;  // the bodies being filled, innermost last
};

std::vector<LocationLoops> publicLoops(const std::vector<nlr::LocationLoops>& all,
                                       const nlr::EventNamer& namer) {
  std::vector<LocationLoops> out;
  for (const nlr::LocationLoops& l : all) {
    LocationLoops p;
    p.location = l.location;
    p.name = l.name;
    p.rank = l.worldRank;
    p.events = l.model.eventsIn;
    p.elements = nlr::printedElements(l.model);
    ElementTreeWriter writer(namer, l, p.program);
    nlr::writeLoopTree(l.model, writer);
    std::ostringstream text;
    nlr::printLoopProgram(text, l, namer);
    p.text = text.str();
    out.push_back(std::move(p));
  }
  return out;
}

// `mtf loops`'s defaults: MPI events only, every signature field, canonical call order.
nlr::SignatureOptions defaultSignatures() {
  nlr::SignatureOptions s;
  s.fields = nlr::kAllFields;
  s.selection = nlr::EventSelection::Communication;
  s.canonicalCallOrder = true;
  return s;
}

}  // namespace

Info Trace::info() {
  return guarded([&] {
    auto source = impl_->openSource();
    cli::InfoCollector c(nullptr, /*batches=*/true);
    source->read(c);
    const mtf::Definitions& defs = source->definitions();
    Info i;
    i.format = defs.info.format;
    i.formatVersion = defs.info.version;
    i.creator = defs.info.creator;
    i.locations = defs.locations().size();
    i.events = c.total();
    for (size_t k = 0; k < kEventKindCount; ++k)
      if (const uint64_t n = c.count(static_cast<EventKind>(k)))
        i.eventsByKind[std::string(nameOf(static_cast<EventKind>(k)))] = n;
    i.resolution = defs.clock.resolution;
    i.firstTimestamp = c.empty() ? 0 : c.first();
    i.lastTimestamp = c.last();
    i.definitions = publicDefinitions(defs).counts;
    i.inputRecords = source->inputRecords();
    i.unmodelled = source->unmodelled();
    const NestingSummary& n = c.nesting().summary();
    i.maxDepth = n.maxDepth;
    i.callsNeverLeft = n.callsNeverLeft;
    i.leavesWithoutEnter = n.unmatchedLeaves;
    i.leavesMismatched = n.mismatchedLeaves;
    i.unbalancedLocations = n.unbalancedLocations;
    return i;
  });
}

Stats Trace::stats() {
  return guarded([&] {
    if (impl_->format == "mtf") {  // the structure only: no value chunk is read
      mtfbin::ArchiveReader reader(impl_->path);
      return statsOf(*reader.model(), reader.sizes(), true);
    }
    mtfbin::ChunkTally chunks;
    compaction::Compactor compactor(
        {}, [&](LocationId, compaction::ColumnChunk&& c) { chunks.add(c.encoded.size()); });
    impl_->openSource()->read(compactor);
    const auto& m = compactor.model();
    return statsOf(m, mtfbin::sizesOf(m, chunks), false);
  });
}

std::vector<LocationLoops> Trace::loops(std::optional<LocationId> location) {
  return guarded([&] {
    if (const auto stored = api_impl::storedLoops(impl_->path, location))
      return publicLoops(stored->loops, nlr::EventNamer(stored->defs, {}));
    const nlr::SignatureOptions signatures = defaultSignatures();
    nlr::NlrSink sink(nlr::NlrOptions{}, signatures, location);
    impl_->openSource()->read(sink);
    return publicLoops(sink.results(), nlr::EventNamer(sink.definitions(), {signatures.fields}));
  });
}

Patterns Trace::patterns() {
  return guarded([&] {
    auto source = impl_->openSource();
    const patterns::PatternReport r = patterns::analyzeTrace(*source, {});
    Patterns p;
    p.processes = r.worldSize;
    p.communicationPatterns = r.commPatterns.size();
    for (const patterns::KnownPatternUse& k : r.known)
      p.known.push_back({k.pattern, k.parameters, k.occurrences, k.eventsCovered, k.ranks,
                         k.firstTime, k.lastTime});
    p.json = patterns::reportJson(r, 10);
    return p;
  });
}

}  // namespace mtf::api
