#include "nlr/loop_print.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "nlr/test_wavefront.hpp"

namespace mtf::nlr {
namespace {

using testing::Wavefront;

std::vector<LocationLoops> run(const Wavefront& w, NlrSink& sink) {
  sink.begin(w.defs);
  for (int r = 0; r < w.width * w.height; ++r)
    w.rankEvents(r, [&](const Event& e) { sink.event(e); });
  return sink.results();
}

SignatureOptions compactNoSize() {
  SignatureOptions s;
  s.selection = EventSelection::Communication;
  s.fields = kAllFields & ~kFieldSize;
  return s;
}

TEST(LoopPrint, Figure3StyleProgram) {
  const Wavefront w(2, 2, 4, 3);
  const SignatureOptions s = compactNoSize();
  NlrSink sink({}, s);
  const auto all = run(w, sink);
  EventNamer namer(sink.definitions(), {s.fields});
  std::ostringstream out;
  printLoopProgram(out, all.at(0), namer);
  EXPECT_EQ(out.str(),
            "# location 100 \"Master thread\" rank 0: 72 events, 19 elements\n"
            "0 sync MPI_Allreduce 0-3\n"
            "0 send 1 tag2\n"
            "1 recv 0 tag1\n"
            "0 send 2 tag4\n"
            "2 recv 0 tag3\n"
            "0 sync MPI_Allreduce 0-3\n"
            "0 sync MPI_Barrier 0-3\n"
            "for i0 = 1 to 4\n"
            "  for i1 = 1 to 3\n"
            "    0 send 1 tag2\n"
            "    0 send 2 tag4\n"
            "  done\n"
            "  for i1 = 1 to 3\n"
            "    1 recv 0 tag1\n"
            "    2 recv 0 tag3\n"
            "  done\n"
            "  0 send 1 tag2\n"
            "  1 recv 0 tag1\n"
            "  0 send 2 tag4\n"
            "  2 recv 0 tag3\n"
            "done\n"
            "0 sync MPI_Allreduce 0-3\n");
  // Rank 3 (south-east corner) prints its own partners.
  std::ostringstream three;
  printLoopProgram(three, all.at(3), namer);
  EXPECT_NE(three.str().find("    2 recv 3 tag2\n"), std::string::npos) << three.str();
  EXPECT_NE(three.str().find("    3 send 2 tag1\n"), std::string::npos) << three.str();
}

TEST(LoopPrint, SizesCallsAndEveryEvent) {
  const Wavefront w(2, 2, 3, 3);
  NlrSink sink({}, {});
  const auto all = run(w, sink);
  EventNamer namer(sink.definitions(), {});
  std::ostringstream out;
  printLoopProgram(out, all.at(1), namer);
  const std::string text = out.str();
  EXPECT_NE(text.find("\n1 call MPI_Allreduce\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  1 send 0 tag1 800B\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n1 sync MPI_Barrier 0-3 8B/8B\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    1 return MPI_Recv\n"), std::string::npos) << text;
}

// A metric event prints its metric's name (a class's members, or an instance's class's);
// a state its value, Paraver's idle 0 too.
TEST(LoopPrint, MetricsByNameStatesByValue) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref first = b.metric("PAPI_TOT_INS", "", 4 /* OTF2_TYPE_UINT64 */);
  const Ref second = b.metric("PAPI_L3_TCM", "", 4);
  defs.add({DefKind::MetricInstance, {7, second, 0, 0, 0}, {}});
  EventNamer namer(defs, {});
  Signature s;
  s.kind = EventKind::Metric;
  s.ident = first;
  EXPECT_EQ(namer.describe(s, 3, 0), "3 Metric PAPI_TOT_INS");
  s.ident = 7;
  EXPECT_EQ(namer.describe(s, 3, 0), "3 Metric PAPI_L3_TCM");
  s.ident = 99;
  EXPECT_EQ(namer.describe(s, 3, 0), "3 Metric metric99");
  s.kind = EventKind::State;
  s.ident = 0;
  EXPECT_EQ(namer.describe(s, -1, 5), "L5 State 0");
}

TEST(LoopPrint, JsonTreeAndStats) {
  const Wavefront w(2, 1, 3, 4);
  const SignatureOptions s = compactNoSize();
  NlrSink sink({}, s);
  const auto all = run(w, sink);
  EventNamer namer(sink.definitions(), {s.fields});
  std::ostringstream json;
  printLoopsJson(json, all, namer);
  const std::string j = json.str();
  EXPECT_EQ(
      j.rfind("{\"locations\":[\n{\"location\":100,\"name\":\"Master thread\",\"rank\":0,", 0), 0u)
      << j;
  EXPECT_NE(
      j.find(
          "{\"loop\":3,\"body\":[{\"loop\":4,\"body\":[{\"event\":\"0 send 1 tag2\",\"symbol\":"),
      std::string::npos)
      << j;
  EXPECT_NE(j.find("\"kind\":\"MpiSend\",\"region\":\"MPI_Send\",\"partner\":1,\"partner_"
                   "relative\":true,\"tag\":2,\"comm\":\"0-1\""),
            std::string::npos)
      << j;
  std::ostringstream stats;
  printLoopStats(stats, all);
  EXPECT_NE(stats.str().find("total"), std::string::npos);
  const uint64_t events = all[0].model.eventsIn + all[1].model.eventsIn;
  EXPECT_NE(stats.str().find(std::to_string(events)), std::string::npos) << stats.str();
}

}  // namespace
}  // namespace mtf::nlr
