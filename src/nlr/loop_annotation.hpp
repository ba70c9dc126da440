// NLR as an annotation of an MTF trace: a sink that passes every event on to a writer
// and runs NLR beside it, then gives each location's loop nest as a blob (loop_blob.hpp)
// to store under the annotation name "nlr.loops".
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nlr/loop_blob.hpp"
#include "nlr/nlr_sink.hpp"

namespace mtf::nlr {

// Name of a location's annotation holding its loop nest (encodeLoopModel bytes). The
// .mtf writer stores a nest only where it summarises the location's events; if it left
// any out, the trace carries an empty trace-wide annotation of the same name, and every
// reader recomputes each absent nest from the location's events with
// storedSignatureOptions() and NlrOptions{} (what users see is the same either way).
// Without it (written with --no-loops, or by an older mtf), absent nests mean none.
inline constexpr char kLoopAnnotationName[] = "nlr.loops";

// Stored loops are made with these options: every event, in trace order, so the loop
// nest describes exactly the events the MTF file gives back.
inline SignatureOptions storedSignatureOptions() {
  return {};
}

class LoopAnnotationSink : public TraceSink {
 public:
  // `inner` may be null: then the events only go to NLR (no call per event to a sink
  // that does nothing). `withCommunication`: NLR also runs over the communication stream
  // derived from the stored one (communication_stream.hpp), for communicationLoops().
  explicit LoopAnnotationSink(std::unique_ptr<TraceSink> inner, bool withCommunication = false);
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override;
  // Finishes NLR first, then the inner sink (whose end may ask for blobs()).
  void end() override;
  LossReport losses() const override { return inner_ ? inner_->losses() : LossReport{}; }

  // (location, encoded loop nest) for every location that had events.
  std::vector<std::pair<LocationId, std::string>> blobs() const;
  // With `withCommunication`: the loop nests of the communication events in canonical
  // call order (those the program model is made of), per location.
  std::vector<LocationLoops> communicationLoops() const { return nlr_.derivedResults(); }

 private:
  std::unique_ptr<TraceSink> inner_;
  NlrSink nlr_;
};

}  // namespace mtf::nlr
