#include "cli/program_input.hpp"

#include <algorithm>
#include <thread>

#include "cli/common.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"

namespace mtf::cli {

namespace {

// NLR works on each location apart: asking for batches lets the OTF2 reader read on two
// lanes while NLR runs (as `mtf loops` does).
class BatchedNlr : public TraceSink {
 public:
  explicit BatchedNlr(nlr::NlrSink& inner) : inner_(inner) {}
  void begin(const Definitions& d) override { inner_.begin(d); }
  void event(const Event& e) override { inner_.event(e); }
  void events(const SharedEventBatch& batch) override { inner_.events(batch); }
  bool prefersBatches() const override { return true; }
  void end() override { inner_.end(); }

 private:
  nlr::NlrSink& inner_;
};

}  // namespace

nlr::SignatureOptions programSignatureOptions() {
  nlr::SignatureOptions signatures;
  signatures.selection = nlr::EventSelection::Communication;
  signatures.canonicalCallOrder = true;
  return signatures;
}

ProgramInput readProgramModel(const std::string& trace, bool lenient) {
  const nlr::SignatureOptions signatures = programSignatureOptions();
  ProgramInput input;
  input.fields = signatures.fields;
  std::vector<nlr::LocationLoops> loops;
  {
    auto source = openInput(trace, lenient);
    nlr::NlrSink sink(nlr::NlrOptions{}, signatures);
    BatchedNlr batched(sink);
    source->read(batched);
    input.defs = sink.definitions();
    loops = sink.results();
  }  // the recognizers' windows are freed before the merge
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  input.model = program::buildProgramModel(std::move(loops), threads);
  return input;
}

}  // namespace mtf::cli
