#include "converters/tau/tau_reader.hpp"

#include <gtest/gtest.h>

#include <set>

#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_test_util.hpp"

namespace mtf::tau {
namespace {

using testing::byLocation;
using testing::CollectSink;
using testing::kL5;
using testing::kL9;

// Records of every .trc file of a per-thread set, from the file sizes alone.
uint64_t recordsOnDisk(const std::filesystem::path& dir) {
  uint64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (parseThreadFileName(entry.path())) bytes += entry.file_size();
  return bytes / 24;
}

TEST(TauReader, ReadsEveryRecordOfEveryThreadFile) {
  for (const auto& dir : {kL5, kL9}) {
    TauReader reader(dir, {});
    CollectSink sink;
    reader.read(sink);
    EXPECT_TRUE(sink.ended);
    EXPECT_EQ(reader.recordsRead(), recordsOnDisk(dir)) << dir;
    EXPECT_EQ(sink.defs.info.properties.at("tau.records"), std::to_string(recordsOnDisk(dir)));
    EXPECT_EQ(reader.order(), EventOrder::ByLocation);
    EXPECT_TRUE(reader.unmodelled().empty());
    // Every record is accounted for: by class, and as events (a triplet is one event).
    const auto counts = reader.inputRecords();
    EXPECT_EQ(counts.at("records (all trc files)"), recordsOnDisk(dir));
    EXPECT_EQ(counts.at("EntryExit records") + counts.at("TriggerValue records") +
                  counts.at("MESSAGE_SEND records") + counts.at("MESSAGE_RECV records") +
                  counts.at("tracer records (Generic)"),
              recordsOnDisk(dir));
    EXPECT_EQ(sink.events.size(),
              recordsOnDisk(dir) - 2 * counts.at("TriggerValue triplets (one Metric each)"));
  }
}

TEST(TauReader, ReadsEveryRecordOfTheMergedFile) {
  for (const auto& dir : {kL5, kL9}) {
    TauReader reader(dir / "tau.trc", {});
    CollectSink sink;
    reader.read(sink);
    EXPECT_EQ(reader.recordsRead(), std::filesystem::file_size(dir / "tau.trc") / 24);
    EXPECT_EQ(reader.order(), EventOrder::ByTime);
    for (size_t i = 1; i < sink.events.size(); ++i)
      ASSERT_LE(sink.events[i - 1].time, sink.events[i].time) << "event " << i;
  }
}

TEST(TauReader, PerThreadSetAndMergedFileGiveTheSameEvents) {
  for (const auto& dir : {kL5, kL9}) {
    TauReader perThread(dir, {});
    TauReader merged(dir / "tau.edf", {});
    CollectSink a, b;
    perThread.read(a);
    merged.read(b);
    EXPECT_EQ(a.defs.locations().size(), b.defs.locations().size());
    const auto left = byLocation(a);
    const auto right = byLocation(b);
    ASSERT_EQ(left.size(), right.size());
    for (const auto& [location, events] : left) {
      ASSERT_TRUE(right.count(location)) << location;
      EXPECT_EQ(events, right.at(location)) << dir << " location " << location;
    }
  }
}

TEST(TauReader, EachNodeThreadIsALocationAndEachNodeAProcess) {
  TauReader reader(kL9 / "tautrace.0.0.5.trc", {});
  const Definitions& defs = reader.definitions();
  const auto locations = defs.locations();
  ASSERT_EQ(locations.size(), 11u);
  std::set<uint64_t> groups;
  for (const auto& l : locations) groups.insert(l.group);
  EXPECT_EQ(groups.size(), 1u);
  EXPECT_EQ(locations[5].id, locationIdOf(0, 0, 5));
  EXPECT_EQ(defs.clock.resolution, 1'000'000u);
}

TEST(TauReader, RegionsGetDisplayNamesAndKeepTheRawName) {
  TauReader reader(kL5, {});
  const Definitions& defs = reader.definitions();
  bool found = false;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Region) continue;
    const std::string raw(defs.string(r.field("canonicalName")));
    if (raw != "cl_int clFinish(cl_command_queue) C ") continue;
    EXPECT_EQ(defs.string(r.field("name")), "cl_int clFinish(cl_command_queue)");
    EXPECT_EQ(defs.string(r.field("description")),
              "42 TAU_USER 0 \"cl_int clFinish(cl_command_queue) C \" EntryExit");
    found = true;
  }
  EXPECT_TRUE(found);
}

// Independent count from the raw records: how many TriggerValue records there are.
uint64_t triggerRecords(const std::filesystem::path& trc, const EdfTable& edf) {
  RecordReader reader(trc, std::nullopt);
  uint64_t n = 0;
  Record r;
  while (reader.next(r))
    if (edf.find(r.event)->eventClass() == EventClass::Trigger) ++n;
  return n;
}

TEST(TauReader, TriggerTripletsBecomeOneMetricSample) {
  const EdfTable edf = readEdf(kL9 / "events.0.edf", false);
  uint64_t records = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kL9))
    if (parseThreadFileName(entry.path())) records += triggerRecords(entry.path(), edf);
  TauReader reader(kL9, {});
  CollectSink sink;
  reader.read(sink);
  uint64_t metrics = 0, singles = 0;
  for (const Event& e : sink.events) {
    if (e.kind != EventKind::Metric) continue;
    ++metrics;
    for (const auto& a : e.attributes)
      if (sink.defs.string(sink.defs.find(DefKind::Attribute, a.attribute)->fields[1]) ==
          "tau:trigger_single")
        ++singles;
  }
  EXPECT_GT(metrics, singles);  // some triplets collapsed
  EXPECT_EQ(3 * (metrics - singles) + singles, records);
}

TEST(TauReader, BookkeepingBecomesGenericWithTheTracerId) {
  TauReader reader(kL5 / "tau.trc", {});  // merged: EV_INIT is renumbered 129 there
  CollectSink sink;
  reader.read(sink);
  uint64_t inits = 0;
  for (const Event& e : sink.events)
    if (e.kind == EventKind::Generic && e.fields[0] == kEvInit) {
      ++inits;
      EXPECT_EQ(asSigned(e.fields[1]), kInitParameter);
    }
  EXPECT_EQ(inits, 3u);  // one per thread
}

TEST(TauReader, SniffsByContent) {
  EXPECT_TRUE(looksLikeTau(kL5));
  EXPECT_TRUE(looksLikeTau(kL5 / "tau.trc"));
  EXPECT_TRUE(looksLikeTau(kL5 / "events.0.edf"));
  EXPECT_TRUE(looksLikeTau(kL9 / "tautrace.0.0.3.trc"));
  EXPECT_FALSE(looksLikeTau(MTF_DATA_DIR "/otf2"));
  EXPECT_FALSE(looksLikeTau(MTF_DATA_DIR "/README.md"));
}

}  // namespace
}  // namespace mtf::tau
