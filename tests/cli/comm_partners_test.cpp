// Issue 17: message partners in sub-communicators. OTF2 names a message's partner by its
// rank in the message's communicator; every writer must turn it into the right world
// rank (or keep it resolvable), whatever the communicator: two-rank communicators made by
// a split, and communicators over a COMM_SELF group (Score-P's MPI_COMM_SELF and a split's
// singletons). Each output's per (sender, receiver) message counts are read without mtf's
// readers (otf2-print, the .prv text, the TAU records' bits) and compared with the input's.
#include <gtest/gtest.h>

#include "cli/format_roundtrip.hpp"
#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

const std::string kSst = std::string(MTF_DATA_DIR) + "/otf2/sst-macro-mpi/traces.otf2";

const char* kFormats[] = {"otf2", "paraver", "tau", "mtf", "mtf-xml"};

// The reference itself: what otf2-print makes of the trace (checked by hand against the
// trace's 8 communicators: 0 world, 1-4 pairs {r, r+6}, 5-7 over the COMM_SELF group).
TEST(CommPartners, SstMacroReferenceMatrix) {
  const SidedMatrices m = otf2Matrices(kSst);
  EXPECT_EQ(total(m.sends), 1440u);
  EXPECT_EQ(m.sends, m.receives);
  EXPECT_EQ((m.sends.at({2, 2})), 95u);
  EXPECT_EQ((m.sends.at({2, 0})), 12u);
  EXPECT_EQ((m.sends.at({4, 4})), 96u);
  EXPECT_EQ(m.sends.count({2, 1}), 0u);
  EXPECT_EQ(m.sends.count({-1, 0}) + m.sends.count({0, -1}), 0u);
}

class SstPartners : public ::testing::TestWithParam<const char*> {};

TEST_P(SstPartners, WorldRankMatrixSurvivesTheFormat) {
  const std::string dir = freshTempDir(std::string("comm-sst-") + GetParam());
  expectSameMatrices(kSst, GetParam(), dir);
}

INSTANTIATE_TEST_SUITE_P(Formats, SstPartners, ::testing::ValuesIn(kFormats));

}  // namespace
