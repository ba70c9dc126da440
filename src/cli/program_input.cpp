#include "cli/program_input.hpp"

#include <algorithm>
#include <optional>
#include <thread>

#include "cli/common.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"

namespace mtf::cli {

namespace {

// The model an MTF archive (binary or XML) stores, if any.
std::optional<ProgramInput> storedModel(const std::string& path) {
  const std::string format = detectInputFormat(path).name;
  std::shared_ptr<const compaction::CompactModel> model;
  if (format == "mtf")
    model = mtfbin::ArchiveReader(path).model();
  else if (format == "mtf-xml")
    model = std::make_shared<compaction::CompactModel>(xml::readModelXml(path).model);
  else
    return std::nullopt;
  for (const compaction::Annotation& a : model->annotations) {
    if (a.name != program::kModelAnnotationName) continue;
    ProgramInput input;
    input.defs = model->definitions;
    input.model = program::decodeProgramModel(
        std::string_view(reinterpret_cast<const char*>(a.data.data()), a.data.size()),
        path + ": annotation " + program::kModelAnnotationName);
    input.stored = true;
    return input;
  }
  return std::nullopt;
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
