// One call from a trace to its structure: reads the signals the search needs in one pass
// (the structure signal, the perturbation, MPI calls, events) and runs findStructure.
#pragma once

#include <string>
#include <vector>

#include "structure/signal.hpp"
#include "structure/structure.hpp"

namespace mtf::structure {

struct AnalyseRequest {
  SignalSpec signal{SignalKind::PointToPoint, ""};
  SignalSpec perturbation{SignalKind::Flush, ""};
  size_t bins = size_t{1} << 18;
  bool orMpi = false;  // no periodic zone on `signal`: try the MPI signal (findStructureOrMpi)
  StructureOptions options;
};

struct Analysis {
  SignalRun run;  // its signals: the structure signal, perturbation, mpi, events
  StructureInput input;
  std::vector<StructureRegion> regions;
  SignalSpec signal;  // the signal the regions were found on
};

// `alsoFeed` (may be null) sees the same events in the same pass (e.g. an NLR sink).
Analysis analyse(const SourceOpener& open, const AnalyseRequest& request,
                 TraceSink* alsoFeed = nullptr);

}  // namespace mtf::structure
