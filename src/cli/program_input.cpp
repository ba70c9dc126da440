#include "cli/program_input.hpp"

#include <algorithm>
#include <thread>

#include "cli/common.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"

namespace mtf::cli {

nlr::SignatureOptions programSignatureOptions() {
  nlr::SignatureOptions signatures;
  signatures.selection = nlr::EventSelection::Communication;
  signatures.canonicalCallOrder = true;
  return signatures;
}

ProgramInput readProgramModel(const std::string& trace, bool lenient) {
  const nlr::SignatureOptions signatures = programSignatureOptions();
  auto source = openInput(trace, lenient);
  nlr::NlrSink sink(nlr::NlrOptions{}, signatures);
  source->read(sink);
  ProgramInput input;
  input.defs = sink.definitions();
  input.fields = signatures.fields;
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  input.model = program::buildProgramModel(sink.results(), threads);
  return input;
}

}  // namespace mtf::cli
