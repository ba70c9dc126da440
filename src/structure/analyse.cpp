#include "structure/analyse.hpp"

namespace mtf::structure {

Analysis analyse(const SourceOpener& open, const AnalyseRequest& request, TraceSink* alsoFeed) {
  Analysis a;
  a.run = readSignals(open,
                      {request.signal, request.perturbation, SignalSpec{SignalKind::Mpi, ""},
                       SignalSpec{SignalKind::Events, ""}},
                      request.bins, alsoFeed);
  a.input.grid = a.run.signals[0].grid;
  a.input.signal = std::move(a.run.signals[0].samples);
  a.input.perturbation = std::move(a.run.signals[1].samples);
  a.input.mpi = std::move(a.run.signals[2].samples);
  a.input.events = std::move(a.run.signals[3].samples);
  a.input.processes = a.run.locations;
  a.signal = request.signal;
  bool usedMpi = false;
  a.regions = request.orMpi ? findStructureOrMpi(a.input, request.options, usedMpi)
                            : findStructure(a.input, request.options);
  if (usedMpi) {
    a.signal = SignalSpec{SignalKind::Mpi, ""};
    a.input.signal = a.input.mpi;
  }
  return a;
}

}  // namespace mtf::structure
