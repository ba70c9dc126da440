#include "nlr/loop_annotation.hpp"

namespace mtf::nlr {

LoopAnnotationSink::LoopAnnotationSink(std::unique_ptr<TraceSink> inner, bool withCommunication)
    : inner_(std::move(inner)), nlr_(NlrOptions{}, storedSignatureOptions()) {
  if (withCommunication) nlr_.deriveCommunicationStream();
}

void LoopAnnotationSink::begin(const Definitions& defs) {
  nlr_.begin(defs);
  if (inner_) inner_->begin(defs);
}

// The inner sink first, so that NLR's call is the last one (a jump, no frame of its own).
void LoopAnnotationSink::event(const Event& e) {
  if (inner_) inner_->event(e);
  nlr_.event(e);
}

void LoopAnnotationSink::events(const SharedEventBatch& batch) {
  if (inner_) inner_->events(batch);
  nlr_.eventsOf(*batch);
}

void LoopAnnotationSink::end() {
  nlr_.end();
  if (inner_) inner_->end();
}

std::vector<std::pair<LocationId, std::string>> LoopAnnotationSink::blobs() const {
  std::vector<std::pair<LocationId, std::string>> out;
  for (const LocationLoops& l : nlr_.results())
    out.emplace_back(l.location, encodeLoopModel(l.model));
  return out;
}

}  // namespace mtf::nlr
