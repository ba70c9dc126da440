#include "program/rank_form.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace mtf::program {
namespace {

RankForm torus(std::vector<uint32_t> extents) {
  RankForm f;
  f.kind = RankForm::Kind::Torus;
  for (uint32_t e : extents) f.extent[f.dimensions++] = e;
  return f;
}

nlr::Signature relativeSend(int64_t partner) {
  nlr::Signature s;
  s.kind = EventKind::MpiSend;
  s.partner = partner;
  s.partnerRelative = true;
  return s;
}

// The constant a form finds for (own, partner) takes own back to that partner.
int64_t roundTrip(const RankForm& f, int64_t own, int64_t partner) {
  int64_t constant = 0;
  EXPECT_TRUE(formConstant(f, own, partner, constant));
  return partnerRank(relativeSend(constant), f, own);
}

TEST(RankForm, OffsetIsTheSeedsForm) {
  EXPECT_EQ(partnerRank(relativeSend(3), RankForm{}, 4), 7);
  nlr::Signature absolute = relativeSend(2);
  absolute.partnerRelative = false;
  EXPECT_EQ(partnerRank(absolute, RankForm{}, 9), 2);
  EXPECT_EQ(partnerRank(relativeSend(1), RankForm{}, -1), -1);
  EXPECT_EQ(partnerExpression(relativeSend(-2), RankForm{}), "r-2");
  EXPECT_EQ(partnerExpression(absolute, RankForm{}), "");
}

TEST(RankForm, XorPairsRanks) {
  const RankForm x{RankForm::Kind::Xor};
  int64_t constant = 0;
  for (int64_t r = 0; r < 8; ++r) {
    ASSERT_TRUE(formConstant(x, r, r ^ 1, constant));
    EXPECT_EQ(constant, 1);
    EXPECT_EQ(partnerRank(relativeSend(1), x, r), r ^ 1);
  }
  EXPECT_EQ(partnerExpression(relativeSend(1), x), "r xor 1");
}

TEST(RankForm, RingWrapsAround) {
  const RankForm ring = torus({12});
  int64_t constant = 0;
  ASSERT_TRUE(formConstant(ring, 11, 0, constant));
  EXPECT_EQ(constant, 1);
  ASSERT_TRUE(formConstant(ring, 0, 11, constant));
  EXPECT_EQ(constant, 11);
  EXPECT_EQ(partnerRank(relativeSend(1), ring, 11), 0);
  EXPECT_EQ(partnerRank(relativeSend(1), ring, 12), -1);  // outside the ring
  EXPECT_EQ(partnerExpression(relativeSend(1), ring), "(r+1) mod 12");
  EXPECT_EQ(partnerExpression(relativeSend(11), ring), "(r-1) mod 12");
}

TEST(RankForm, TorusNeighboursOfEveryRank) {
  // 3 rows of 4: rank = row * 4 + column; the east neighbour of column 3 is column 0.
  const RankForm grid = torus({3, 4});
  for (int64_t r = 0; r < 12; ++r) {
    const int64_t row = r / 4, column = r % 4;
    const int64_t east = row * 4 + (column + 1) % 4, west = row * 4 + (column + 3) % 4;
    const int64_t north = (row + 2) % 3 * 4 + column;
    int64_t constant = 0;
    ASSERT_TRUE(formConstant(grid, r, east, constant));
    EXPECT_EQ(constant, 1) << r;
    ASSERT_TRUE(formConstant(grid, r, west, constant));
    EXPECT_EQ(constant, 3) << r;
    ASSERT_TRUE(formConstant(grid, r, north, constant));
    EXPECT_EQ(constant, 8) << r;
    EXPECT_EQ(roundTrip(grid, r, north), north);
  }
  EXPECT_EQ(partnerExpression(relativeSend(3), grid), "(r+(0,-1)) mod 3x4");
  EXPECT_EQ(partnerExpression(relativeSend(8), grid), "(r+(-1,0)) mod 3x4");
  const RankForm cube = torus({2, 2, 2});
  EXPECT_EQ(roundTrip(cube, 5, 6), 6);
  EXPECT_EQ(partnerExpression(relativeSend(4), cube), "(r+(1,0,0)) mod 2x2x2");
}

TEST(RankForm, CandidatesAreTheFactorizationsOfTheWorld) {
  const std::vector<RankForm> forms = candidateForms(12);
  auto has = [&](const RankForm& f) {
    return std::find(forms.begin(), forms.end(), f) != forms.end();
  };
  EXPECT_EQ(forms[0], RankForm{});
  EXPECT_EQ(forms[1], RankForm{RankForm::Kind::Xor});
  EXPECT_TRUE(has(torus({12})));
  EXPECT_TRUE(has(torus({3, 4})));
  EXPECT_TRUE(has(torus({4, 3})));
  EXPECT_TRUE(has(torus({2, 2, 3})));
  EXPECT_FALSE(has(torus({5, 2})));
  // 2 + 1 ring + 4 grids (2x6 3x4 4x3 6x2) + 3 cubes (2x2x3 2x3x2 3x2x2)
  EXPECT_EQ(forms.size(), 10u);
  EXPECT_EQ(candidateForms(1).size(), 2u);
}

}  // namespace
}  // namespace mtf::program
