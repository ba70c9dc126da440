// mtf-mpi loops | model | stats TRACE: the analyses of `mtf loops`, `mtf model` and
// `mtf stats` on MPI processes, each reading its share of the locations; rank 0 prints
// what the serial command prints.
#include <iostream>

#include "cli/common.hpp"
#include "cli/stats_report.hpp"
#include "mpi/column_spool.hpp"
#include "mpi/commands.hpp"
#include "mpi/parallel_archive.hpp"
#include "mpi/parallel_model.hpp"
#include "mpi/phases.hpp"
#include "mpi/share.hpp"
#include "nlr/loop_blob.hpp"
#include "program/model_annotation.hpp"
#include "program/model_print.hpp"
#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::mpi {

namespace {

// NLR over this process's share.
std::vector<nlr::LocationLoops> shareLoops(World& world, const std::string& trace, bool lenient,
                                           nlr::NlrSink& nlr, ShareInput& share) {
  share = openShare(trace, lenient, world.rank(), world.size());
  nlr::BatchedNlrSink batched(nlr);
  readShare(share, batched);
  return nlr.results();
}

std::string encodeLoops(const std::vector<nlr::LocationLoops>& loops) {
  std::string out;
  putBlobVarint(out, loops.size());
  for (const nlr::LocationLoops& l : loops) {
    putBlobVarint(out, l.location);
    putBlobString(out, l.name);
    putBlobVarint(out, blobZigzag(l.worldRank));
    putBlobVarint(out, l.eventsRead);
    putBlobString(out, nlr::encodeLoopModel(l.model));
  }
  return out;
}

// Every process's loops, in NlrSink::results() order (processes hold runs of the
// locations in definition order, so rank order is that order).
std::vector<nlr::LocationLoops> decodeLoops(const std::vector<std::string>& parts) {
  const std::string source = "mtf-mpi";
  std::vector<nlr::LocationLoops> all;
  for (const std::string& part : parts) {
    BlobCursor in(part, source, "loop nests");
    for (uint64_t n = in.varint(); n > 0; --n) {
      nlr::LocationLoops l;
      l.location = in.varint();
      l.name = std::string(in.string());
      l.worldRank = blobUnzigzag(in.varint());
      l.eventsRead = in.varint();
      l.model = nlr::decodeLoopModel(in.string(), source);
      all.push_back(std::move(l));
    }
  }
  return all;
}

}  // namespace

int runLoops(World& world, const cli::LoopsOptions& o) {
  std::vector<nlr::LocationLoops> mine;
  nlr::SignatureOptions signatures;
  ShareInput share;
  int code = localPhase(world, [&] {
    signatures = cli::signatureOptions(o);
    nlr::NlrSink nlr({o.window, o.minReps}, signatures, o.location);
    mine = shareLoops(world, o.trace, o.lenient, nlr, share);
  });
  if (code != 0) return code;
  std::vector<nlr::LocationLoops> all;
  collectivePhase(world, [&] { all = decodeLoops(world.gather(encodeLoops(mine))); });
  return localPhase(world, [&] {
    if (!world.isRoot()) return;
    cli::printLoops(o, all, nlr::EventNamer(share.source->definitions(), {signatures.fields}));
  });
}

int runModel(World& world, const ModelArgs& a) {
  std::vector<nlr::LocationLoops> mine;
  ShareInput share;
  int code = localPhase(world, [&] {
    nlr::NlrSink nlr(nlr::NlrOptions{}, program::modelSignatureOptions());
    mine = shareLoops(world, a.trace, a.lenient, nlr, share);
  });
  if (code != 0) return code;
  const Definitions& defs = share.source->definitions();
  program::ProgramModel model;
  collectivePhase(world, [&] { model = reduceProgramModel(world, std::move(mine), defs); });
  return localPhase(world, [&] {
    if (!world.isRoot()) return;
    std::ios::sync_with_stdio(false);
    const nlr::EventNamer namer(defs, {nlr::kAllFields});
    if (a.json)
      program::printModelJson(std::cout, model, namer);
    else
      program::printModelText(std::cout, model, namer, a.positions);
    cli::flushStdout();
  });
}

int runStats(World& world, const StatsArgs& a) {
  std::unique_ptr<ColumnSpool> spool;
  ShareInput share;
  int code = localPhase(world, [&] {
    share = openShare(a.trace, a.lenient, world.rank(), world.size());
    spool = std::make_unique<ColumnSpool>(std::filesystem::path(), shareOptions(world.size()));
    readShare(share, *spool);
  });
  if (code != 0) return code;
  const Definitions& defs = share.source->definitions();
  compaction::CompactModel merged;
  std::vector<mtfbin::IndexEntry> index;
  collectivePhase(world, [&] {
    merged = reduceStructure(world, std::move(spool->model()), defs);
    index = gatherColumnIndex(world, spool->entries(), 0, merged);
  });
  return localPhase(world, [&] {
    if (!world.isRoot()) return;
    std::vector<uint64_t> perLocation(merged.locations.size(), 0);
    mtfbin::ChunkTally chunks;
    for (const mtfbin::IndexEntry& e : index)
      perLocation.at(e.locationIndex) += chunks.add(e.storedSize);
    const nlohmann::ordered_json j =
        cli::buildStats(merged, mtfbin::sizesOf(merged, chunks), perLocation, false);
    if (a.json)
      std::cout << j.dump(2) << '\n';
    else
      cli::printText(std::cout, j);
    cli::flushStdout();
  });
}

}  // namespace mtf::mpi
