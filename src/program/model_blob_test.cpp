#include "program/model_blob.hpp"

#include <gtest/gtest.h>

#include "nlr/nlr_sink.hpp"
#include "nlr/test_wavefront.hpp"
#include "program/build_model.hpp"
#include "program/grouping.hpp"
#include "program/model_annotation.hpp"
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
  newer[6] = 2;  // a version this reader does not know
  EXPECT_THROW(decodeProgramModel(newer, "test"), InputError);
}

}  // namespace
}  // namespace mtf::program
