#include "filter/id_list.hpp"

#include <gtest/gtest.h>

#include "util/error.hpp"

namespace mtf::filter {
namespace {

TEST(IdList, NumbersRangesAndNames) {
  const IdList l = parseIdList("0-15, 32,Master thread , 7-7", "--ranks");
  ASSERT_EQ(l.ranges.size(), 3u);
  EXPECT_EQ(l.ranges[0], (std::pair<uint64_t, uint64_t>{0, 15}));
  EXPECT_EQ(l.ranges[1], (std::pair<uint64_t, uint64_t>{32, 32}));
  EXPECT_EQ(l.names, std::vector<std::string>{"Master thread"});
  EXPECT_TRUE(l.containsNumber(15));
  EXPECT_TRUE(l.containsNumber(7));
  EXPECT_FALSE(l.containsNumber(16));
  EXPECT_FALSE(l.containsNumber(33));
  EXPECT_TRUE(l.containsName("Master thread"));
  EXPECT_FALSE(l.containsName("Master"));
}

TEST(IdList, NamesThatLookAlmostLikeRanges) {
  const IdList l = parseIdList("MPI Rank 3,1-a,CUDA-0", "--locations");
  EXPECT_TRUE(l.ranges.empty());
  EXPECT_EQ(l.names, (std::vector<std::string>{"MPI Rank 3", "1-a", "CUDA-0"}));
  EXPECT_EQ(parseIdList("137438953472", "--locations").ranges[0].first, 137438953472ull);
}

TEST(IdList, RefusesEmptyItemsAndBackwardRanges) {
  EXPECT_THROW(parseIdList("1,,2", "--ranks"), UsageError);
  EXPECT_THROW(parseIdList("", "--ranks"), UsageError);
  EXPECT_THROW(parseIdList("5-2", "--ranks"), UsageError);
}

TEST(Glob, StarsQuestionMarksAndClasses) {
  EXPECT_TRUE(globMatch("MPI_*", "MPI_Send"));
  EXPECT_TRUE(globMatch("MPI_*", "MPI_"));
  EXPECT_FALSE(globMatch("MPI_*", "PMPI_Send"));
  EXPECT_TRUE(globMatch("*Send*", "MPI_Isend_init") == false);
  EXPECT_TRUE(globMatch("*send*", "MPI_Isend_init"));
  EXPECT_TRUE(globMatch("MPI_?send", "MPI_Isend"));
  EXPECT_FALSE(globMatch("MPI_?send", "MPI_send"));
  EXPECT_TRUE(globMatch("MPI_[IS]*", "MPI_Send"));
  EXPECT_FALSE(globMatch("MPI_[!IS]*", "MPI_Send"));
  EXPECT_TRUE(globMatch("MPI_[!IS]*", "MPI_Bcast"));
  EXPECT_TRUE(globMatch("k[0-9]", "k7"));
  EXPECT_FALSE(globMatch("k[0-9]", "kx"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_FALSE(globMatch("main", "main2"));
  EXPECT_TRUE(globMatch("a*b*c", "axxbyyc"));
  EXPECT_FALSE(globMatch("a*b*c", "axxbyy"));
}

TEST(Glob, PatternsSplitAtCommasFromEveryValue) {
  const auto p = splitPatterns({"MPI_*, omp*", "main"}, "--regions");
  EXPECT_EQ(p, (std::vector<std::string>{"MPI_*", "omp*", "main"}));
  EXPECT_TRUE(matchesAny(p, "ompParallel"));
  EXPECT_FALSE(matchesAny(p, "solve"));
  EXPECT_THROW(splitPatterns({"MPI_*,"}, "--regions"), UsageError);
  EXPECT_THROW(splitPatterns({"k[0-9"}, "--regions"), UsageError);
}

}  // namespace
}  // namespace mtf::filter
