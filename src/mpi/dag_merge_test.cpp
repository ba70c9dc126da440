#include "mpi/dag_merge.hpp"

#include <gtest/gtest.h>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "compaction/test_support.hpp"

namespace mtf::mpi {
namespace {

using compaction::CompactModel;
using compaction::testing::CollectingSink;
using compaction::testing::SyntheticTrace;

// The model of the events of `locations` only, columns kept in the model.
CompactModel compactShare(const SyntheticTrace& trace, const std::vector<LocationId>& locations) {
  compaction::Compactor compactor;
  compactor.begin(trace.defs);
  for (const Event& e : trace.events)
    if (std::find(locations.begin(), locations.end(), e.location) != locations.end())
      compactor.event(e);
  compactor.end();
  return std::move(compactor.model());
}

// The merged structure with each location's columns taken from the part that holds it.
CompactModel withColumns(CompactModel merged, const std::vector<const CompactModel*>& parts) {
  for (compaction::LocationModel& l : merged.locations)
    for (const CompactModel* part : parts)
      if (const compaction::LocationModel* p = part->findLocation(l.location))
        l.columns = p->columns;
  return merged;
}

std::vector<Event> expand(CompactModel model) {
  compaction::ModelSource source(std::make_shared<const CompactModel>(std::move(model)));
  CollectingSink sink;
  source.read(sink);
  return sink.events;
}

// The ids of locations [first, last) of the trace's definitions.
std::vector<LocationId> ids(const SyntheticTrace& trace, size_t first, size_t last) {
  std::vector<LocationId> out;
  for (const LocationView& l : trace.defs.locations()) out.push_back(l.id);
  return {out.begin() + first, out.begin() + last};
}

class DagMerge : public ::testing::TestWithParam<uint32_t> {};

TEST_P(DagMerge, PartsMergedExpandToTheWholeTracesEvents) {
  const SyntheticTrace trace = compaction::testing::makeSyntheticTrace(6, 30, GetParam());
  const CompactModel whole = compactShare(trace, ids(trace, 0, 6));
  const CompactModel a = compactShare(trace, ids(trace, 0, 2));
  const CompactModel b = compactShare(trace, ids(trace, 2, 6));
  const CompactModel merged = withColumns(mergeStructures({&b, &a}, trace.defs), {&a, &b});
  EXPECT_TRUE(merged.check().empty()) << merged.check().front();
  const std::vector<Event> expected = expand(whole);
  ASSERT_EQ(expected.size(), trace.events.size());
  EXPECT_EQ(compaction::testing::firstDifference(expand(merged), expected, trace.defs), "");
}

TEST_P(DagMerge, StructureDoesNotDependOnTheSplit) {
  const SyntheticTrace trace = compaction::testing::makeSyntheticTrace(6, 30, GetParam());
  const CompactModel whole = compactShare(trace, ids(trace, 0, 6));
  const CompactModel a = compactShare(trace, ids(trace, 0, 3));
  const CompactModel b = compactShare(trace, ids(trace, 3, 4));
  const CompactModel c = compactShare(trace, ids(trace, 4, 6));
  const CompactModel ab = mergeStructures({&a, &b}, trace.defs);
  const CompactModel split = mergeStructures({&c, &ab}, trace.defs);
  const CompactModel alone = mergeStructures({&whole}, trace.defs);
  EXPECT_EQ(split.signatures.size(), alone.signatures.size());
  EXPECT_TRUE(split.signatures == alone.signatures);
  EXPECT_TRUE(split.nodes == alone.nodes);
  ASSERT_EQ(split.locations.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(split.locations[i].location, ids(trace, 0, 6)[i]);
    EXPECT_EQ(split.locations[i].root, alone.locations[i].root);
  }
  // The figures of the paper's Table 1 are those of the serial compaction.
  EXPECT_EQ(split.totalFigures().dagNodes, whole.totalFigures().dagNodes);
  EXPECT_EQ(split.totalFigures().treeNodes, whole.totalFigures().treeNodes);
}

INSTANTIATE_TEST_SUITE_P(Seeds, DagMerge, ::testing::Values(1u, 7u, 42u));

}  // namespace
}  // namespace mtf::mpi
