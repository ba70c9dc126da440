#include "program/model_blob.hpp"

#include <gtest/gtest.h>

#include "nlr/loop_blob.hpp"
#include "nlr/nlr_sink.hpp"
#include "nlr/test_wavefront.hpp"
#include "program/build_model.hpp"
#include "program/grouping.hpp"
#include "program/model_annotation.hpp"
#include "util/blob_cursor.hpp"
#include "util/error.hpp"

namespace mtf::program {
namespace {

ProgramModel wavefrontModel() {
  const nlr::testing::Wavefront wave(4, 3, 9, 5);
  nlr::NlrSink sink({}, modelSignatureOptions());
  sink.begin(wave.defs);
  for (int r = 0; r < 12; ++r) wave.rankEvents(r, [&](const Event& e) { sink.event(e); });
  sink.end();
  ProgramModel m = buildProgramModel(sink.results(), 1);
  m.constructs.front().note = "a note";
  return m;
}

bool sameSystem(const System& a, const System& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!sameShape(a[i], b[i]) || a[i].procs != b[i].procs || a[i].note != b[i].note ||
        !sameSystem(a[i].body, b[i].body))
      return false;
  }
  return true;
}

TEST(ModelBlob, RoundTrips) {
  const ProgramModel m = wavefrontModel();
  const ProgramModel back = decodeProgramModel(encodeProgramModel(m), "test");
  EXPECT_EQ(back.eventsIn, m.eventsIn);
  ASSERT_EQ(back.processes.size(), m.processes.size());
  for (size_t p = 0; p < m.processes.size(); ++p) {
    EXPECT_EQ(back.processes[p].location, m.processes[p].location);
    EXPECT_EQ(back.processes[p].worldRank, m.processes[p].worldRank);
  }
  EXPECT_TRUE(sameSystem(back.constructs, m.constructs));
}

TEST(ModelBlob, EveryTruncationIsAnInputError) {
  const std::string blob = encodeProgramModel(wavefrontModel());
  for (size_t n = 0; n < blob.size(); ++n)
    EXPECT_THROW(decodeProgramModel(std::string_view(blob).substr(0, n), "test"), InputError) << n;
  EXPECT_THROW(decodeProgramModel(blob + "x", "test"), InputError);
  std::string newer = blob;
  newer[6] = 3;  // a version this reader does not know
  EXPECT_THROW(decodeProgramModel(newer, "test"), InputError);
}

// A pair exchange (xor) and a torus neighbour keep their rank forms through the blob.
TEST(ModelBlob, RankFormsRoundTrip) {
  ProgramModel m;
  for (int r = 0; r < 12; ++r) m.processes.push_back({LocationId(r), r, ""});
  Construct pair;
  pair.procs = {0, 1, 2, 3};
  pair.signature.kind = EventKind::MpiSend;
  pair.signature.partnerRelative = true;
  pair.signature.partner = 1;
  pair.form.kind = RankForm::Kind::Xor;
  Construct torus = pair;
  torus.procs = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  torus.signature.partner = 3;
  torus.form = RankForm{RankForm::Kind::Torus, 2, {3, 4, 0}};
  m.constructs = {pair, torus};
  const ProgramModel back = decodeProgramModel(encodeProgramModel(m), "test");
  ASSERT_EQ(back.constructs.size(), 2u);
  EXPECT_EQ(back.constructs[0].form, pair.form);
  EXPECT_EQ(back.constructs[1].form, torus.form);
  EXPECT_EQ(back.constructs[1].signature.partner, 3);
  std::string bad = encodeProgramModel(m);
  bad[bad.size() - 3] = 4;  // the torus of 4 dimensions
  EXPECT_THROW(decodeProgramModel(bad, "test"), InputError);
}

// A version-1 blob (before rank forms) still reads: every partner an offset.
TEST(ModelBlob, VersionOneStillReads) {
  std::string v1("MTFPRG\x01", 7);
  putBlobVarint(v1, 2);  // events
  putBlobVarint(v1, 1);  // processes
  putBlobVarint(v1, 7);  // location
  putBlobVarint(v1, blobZigzag(0));
  putBlobString(v1, "rank 0");
  putBlobVarint(v1, 1);  // one construct: an event
  putBlobVarint(v1, 1);
  putBlobVarint(v1, 1);
  putBlobVarint(v1, 0);
  putBlobString(v1, "");
  nlr::Signature s;
  s.kind = EventKind::MpiSend;
  s.partnerRelative = true;
  s.partner = 1;
  nlr::putSignature(v1, s);
  const ProgramModel m = decodeProgramModel(v1, "test");
  ASSERT_EQ(m.constructs.size(), 1u);
  EXPECT_EQ(m.constructs[0].signature, s);
  EXPECT_EQ(m.constructs[0].form, RankForm{});
  EXPECT_EQ(m.processes[0].location, 7u);
}

}  // namespace
}  // namespace mtf::program
