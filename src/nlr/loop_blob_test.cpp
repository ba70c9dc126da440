#include "nlr/loop_blob.hpp"

#include <gtest/gtest.h>

#include <random>

#include "nlr/loop_annotation.hpp"
#include "nlr/nlr_sink.hpp"
#include "nlr/test_wavefront.hpp"
#include "util/error.hpp"

namespace mtf::nlr {
namespace {

LoopModel wavefrontModel() {
  const testing::Wavefront w(3, 3, 20, 7);
  NlrSink sink({}, {});
  sink.begin(w.defs);
  w.rankEvents(4, [&](const Event& e) { sink.event(e); });
  return sink.results().at(0).model;
}

TEST(LoopBlob, RoundTripKeepsTheModel) {
  const LoopModel m = wavefrontModel();
  ASSERT_GT(m.bodies.size(), 2u);
  const std::string blob = encodeLoopModel(m);
  EXPECT_EQ(blob.substr(0, 7), std::string("MTFNLR\x01", 7));
  EXPECT_EQ(decodeLoopModel(blob, "x"), m);
  EXPECT_LT(blob.size(), 400u);  // a 9-rank-neighbourhood rank of 20 x 2 x 7 steps
}

TEST(LoopBlob, SignedPartnersAndUndefinedRefsSurvive) {
  LoopModel m;
  Signature s;
  s.kind = EventKind::MpiRecv;
  s.partner = -5;
  s.partnerRelative = true;
  s.tag = 0xFFFFFFFFu;
  s.size = ~uint64_t{0};
  m.signatures = {s, Signature{}};
  m.bodies = {{eventKey(0), eventKey(1)}, {loopKey(0, kMaxIterations)}};
  m.top = {eventKey(1), loopKey(1, 3), eventKey(0)};
  m.eventsIn = 1234;
  EXPECT_EQ(decodeLoopModel(encodeLoopModel(m), "x"), m);
}

class CountingSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event&) override { ++events; }
  void end() override {}
  size_t events = 0;
};

TEST(LoopBlob, AnnotationSinkWithoutInnerSinkGivesTheSameBlobs) {
  const testing::Wavefront w(3, 3, 20, 7);
  auto counting = std::make_unique<CountingSink>();
  CountingSink* inner = counting.get();
  LoopAnnotationSink with(std::move(counting)), without(nullptr);
  with.begin(w.defs);
  without.begin(w.defs);
  size_t events = 0;
  for (int r : {0, 4})
    w.rankEvents(r, [&](const Event& e) {
      with.event(e);
      without.event(e);
      ++events;
    });
  with.end();
  without.end();
  EXPECT_EQ(inner->events, events);
  ASSERT_EQ(without.blobs().size(), 2u);
  EXPECT_EQ(without.blobs(), with.blobs());
}

TEST(LoopBlob, MalformedBlobsAreInputErrors) {
  const std::string blob = encodeLoopModel(wavefrontModel());
  for (size_t cut = 0; cut < blob.size(); ++cut)
    EXPECT_THROW(decodeLoopModel(blob.substr(0, cut), "cut"), InputError) << cut;
  EXPECT_THROW(decodeLoopModel(blob + "x", "tail"), InputError);
  // Random corruption: either a clean InputError or a model that re-encodes to itself.
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bad = blob;
    bad[7 + rng() % (bad.size() - 7)] = static_cast<char>(rng());
    try {
      const LoopModel m = decodeLoopModel(bad, "fuzz");
      EXPECT_EQ(decodeLoopModel(encodeLoopModel(m), "again"), m);
    } catch (const InputError&) {
    }
  }
}

TEST(LoopBlob, ForwardAndSelfReferencesAreRejected) {
  LoopModel m;
  m.signatures = {Signature{}};
  m.bodies = {{loopKey(0, 3)}};  // body 0 refers to itself
  m.top = {loopKey(0, 3)};
  EXPECT_THROW(decodeLoopModel(encodeLoopModel(m), "cycle"), InputError);
  m.bodies = {{eventKey(0)}};
  m.top = {loopKey(0, 0)};
  EXPECT_THROW(decodeLoopModel(encodeLoopModel(m), "zero"), InputError);
  m.top = {eventKey(1)};
  EXPECT_THROW(decodeLoopModel(encodeLoopModel(m), "symbol"), InputError);
}

}  // namespace
}  // namespace mtf::nlr
