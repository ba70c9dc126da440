#include "program/model_annotation.hpp"

#include "program/build_model.hpp"
#include "program/model_blob.hpp"

namespace mtf::program {

nlr::SignatureOptions modelSignatureOptions() {
  return nlr::communicationInCallOrder();
}

std::vector<uint8_t> programModelBlob(std::vector<nlr::LocationLoops> locations) {
  const std::string blob = encodeProgramModel(buildProgramModel(std::move(locations), 2));
  return {blob.begin(), blob.end()};
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
  blob_ = programModelBlob(nlr_.results());
  if (writer_) writer_->end();
}

}  // namespace mtf::program
