#include "cli/program_input.hpp"

#include <algorithm>
#include <optional>
#include <thread>

#include "api/stored_model.hpp"
#include "cli/common.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"
#include "program/model_annotation.hpp"

namespace mtf::cli {

namespace {

// The model an MTF archive (binary or XML) stores, if any.
std::optional<ProgramInput> storedModel(const std::string& path) {
  const auto model = api_impl::storedCompactModel(path);
  if (!model) return std::nullopt;
  std::optional<program::ProgramModel> stored = api_impl::storedProgramModel(*model, path);
  if (!stored) return std::nullopt;
  ProgramInput input;
  input.defs = model->definitions;
  input.model = std::move(*stored);
  input.stored = true;
  return input;
}

}  // namespace

ProgramInput readProgramModel(const std::string& trace, bool lenient, bool recompute) {
  if (!recompute)
    if (std::optional<ProgramInput> stored = storedModel(trace)) return std::move(*stored);
  ProgramInput input;
  std::vector<nlr::LocationLoops> loops;
  {
    auto source = openInput(trace, lenient);
    nlr::NlrSink sink(nlr::NlrOptions{}, program::modelSignatureOptions());
    nlr::BatchedNlrSink batched(sink);
    source->read(batched);
    input.defs = sink.definitions();
    loops = sink.results();
  }  // the recognizers' windows are freed before the merge
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  input.model = program::buildProgramModel(std::move(loops), threads);
  return input;
}

}  // namespace mtf::cli
