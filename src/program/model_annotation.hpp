// The program model as an annotation of an MTF trace: NLR with the model's event
// selection runs beside the writer, and at the end the merged model becomes the
// trace-wide annotation "program.model" (model_blob.hpp).
#pragma once

#include <memory>
#include <vector>

#include "model/trace_stream.hpp"
#include "nlr/nlr_sink.hpp"

namespace mtf::program {

// The events the program model is made of: MPI messages and collectives, those of one
// MPI call in canonical order (the defaults of `mtf loops`). `mtf extract` counts
// positions in this selection.
nlr::SignatureOptions modelSignatureOptions();
// The annotation's bytes: the program model merged from the locations' nests of that
// selection (NlrSink::results() with modelSignatureOptions(), or the nests derived from
// the stored loops: LoopAnnotationSink::communicationLoops()).
std::vector<uint8_t> programModelBlob(std::vector<nlr::LocationLoops> locations);

// NLR beside `writer`; `blob()` holds the encoded model from the start of the writer's
// end(). `writer` may be null (the model only).
class ModelAnnotationSink : public TraceSink {
 public:
  explicit ModelAnnotationSink(std::unique_ptr<TraceSink> writer);
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override;
  void end() override;
  LossReport losses() const override { return writer_ ? writer_->losses() : LossReport{}; }
  const std::vector<uint8_t>& blob() const { return blob_; }

 private:
  std::unique_ptr<TraceSink> writer_;
  nlr::NlrSink nlr_;
  std::vector<uint8_t> blob_;
};

}  // namespace mtf::program
