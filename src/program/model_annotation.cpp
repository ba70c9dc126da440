#include "program/model_annotation.hpp"

#include "program/build_model.hpp"
#include "program/model_blob.hpp"

namespace mtf::program {

nlr::SignatureOptions modelSignatureOptions() {
  nlr::SignatureOptions signatures;
  signatures.selection = nlr::EventSelection::Communication;
  signatures.canonicalCallOrder = true;
  return signatures;
}

ModelAnnotationSink::ModelAnnotationSink(std::unique_ptr<TraceSink> writer)
    : writer_(std::move(writer)), nlr_(nlr::NlrOptions{}, modelSignatureOptions()) {}

void ModelAnnotationSink::begin(const Definitions& defs) {
  nlr_.begin(defs);
  if (writer_) writer_->begin(defs);
}

void ModelAnnotationSink::event(const Event& e) {
  nlr_.event(e);
  if (writer_) writer_->event(e);
}

void ModelAnnotationSink::events(const SharedEventBatch& batch) {
  nlr_.events(batch);
  if (writer_) writer_->events(batch);
}

void ModelAnnotationSink::end() {
  nlr_.end();
  const std::string blob = encodeProgramModel(buildProgramModel(nlr_.results(), 2));
  blob_.assign(blob.begin(), blob.end());
  if (writer_) writer_->end();
}

}  // namespace mtf::program
