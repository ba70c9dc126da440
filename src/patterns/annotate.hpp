// Pattern detection beside an MTF writer (WriteOptions::patterns): events go to the
// writer and to a PatternDetector; at end() the detection finishes first and its
// annotation blob (analysis.hpp annotationBlob) is ready when the writer's end() runs,
// so a writer's model hook can attach it:
//   auto sink = std::make_unique<patterns::PatternAnnotationSink>(std::move(writer));
//   writerHook([s = sink.get()](CompactModel& m) {
//     m.annotations.push_back({patterns::kPatternsAnnotation, s->blob()}); });
#pragma once

#include <memory>
#include <vector>

#include "patterns/analysis.hpp"

namespace mtf::patterns {

class PatternAnnotationSink : public TraceSink {
 public:
  explicit PatternAnnotationSink(std::unique_ptr<TraceSink> writer, size_t top = 20)
      : writer_(std::move(writer)), top_(top) {}
  void begin(const Definitions& defs) override {
    detector_.begin(defs);
    writer_->begin(defs);
  }
  void event(const Event& e) override {
    detector_.event(e);
    writer_->event(e);
  }
  void end() override {
    detector_.end();
    blob_ = annotationBlob(analyzeDetected(detector_), top_);
    writer_->end();
  }
  LossReport losses() const override { return writer_->losses(); }
  // Valid from the start of the writer's end().
  const std::vector<uint8_t>& blob() const { return blob_; }

 private:
  std::unique_ptr<TraceSink> writer_;
  size_t top_;
  PatternDetector detector_;
  std::vector<uint8_t> blob_;
};

}  // namespace mtf::patterns
