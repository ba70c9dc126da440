#include "converters/paraver/record_sorter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "converters/paraver/paraver_test_util.hpp"

namespace mtf::paraver {
namespace {

using testing::TempDir;

// Streams as the Paraver writer makes them for derived states: a location's event lines
// (rank 1) each added when the next event of another time comes; its state's record
// (rank 2, at the state's begin) added at the state's end, expected since its begin
// (expectLate), before the line open at the end's event is closed (the line at the
// state's begin, when the state lasts one event). Whatever the order of adds, the output is
// in (time, rank, order) order; the late records put where they go leave no stream to
// sort.
void mergeWithLateRecords(bool timeOrdered) {
  TempDir dir;
  // Time-ordered input releases as it goes; location after location spills runs.
  RecordSorter sorter(dir.path() / "x.prv", timeOrdered ? size_t{1} << 20 : size_t{1} << 14);
  std::mt19937_64 random(timeOrdered ? 5 : 6);
  constexpr size_t kStreams = 6;
  constexpr int kEvents = 30000;
  std::vector<Tick> clock(kStreams, 0), stateSince(kStreams, 0), lineTime(kStreams, 0);
  std::vector<uint64_t> records(kStreams, 0);
  std::vector<std::tuple<Tick, uint8_t, uint64_t, std::string>> expected;
  std::vector<std::string> got;
  const auto out = [&](std::string_view line) { got.emplace_back(line); };
  uint64_t sequence = 0;
  const auto add = [&](size_t stream, Tick time, uint8_t rank, bool late) {
    const uint64_t order = timeOrdered ? (stream << 35) | records[stream]++ : sequence++;
    const std::string text = std::to_string(time) + ":" + std::to_string(rank) + ":" +
                             std::to_string(stream) + ":" + std::to_string(order);
    TextBuffer line;
    line.append(text);
    if (timeOrdered) {
      sorter.addOrdered(time, rank, stream, order, line, late);
    } else {
      sorter.add(time, rank, stream, line, late);
    }
    expected.emplace_back(time, rank, order, text);
  };
  for (size_t s = 0; s < kStreams; ++s) sorter.expectLate(s, 0);
  for (int i = 0; i < kEvents; ++i) {
    // Time-ordered: any location next; else location after location.
    const size_t s = timeOrdered ? random() % kStreams : i * kStreams / kEvents;
    const Tick time = clock[s] += random() % 3;
    if (random() % 3 == 0 && time > stateSince[s]) {  // the event changes the state
      add(s, stateSince[s], 2, true);
      stateSince[s] = time;
      sorter.expectLate(s, time);
    }
    if (lineTime[s] != time) {  // the open line closes, one opens at `time`
      add(s, lineTime[s], 1, false);
      lineTime[s] = time;
    }
    if (timeOrdered && i % 1000 == 999) {
      Tick bound = *std::min_element(stateSince.begin(), stateSince.end());
      bound = std::min(bound, *std::min_element(lineTime.begin(), lineTime.end()));
      sorter.release(bound, out);
    }
  }
  for (size_t s = 0; s < kStreams; ++s) {
    add(s, lineTime[s], 1, false);
    add(s, stateSince[s], 2, true);
  }
  if (!timeOrdered) {
    EXPECT_GT(sorter.runCount(), 3u);
  }
  sorter.drain(out);
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], std::get<3>(expected[i])) << i;
  EXPECT_EQ(sorter.sortedStreams(), 0u);
}

TEST(RecordSorter, LateRecordsWhereTheyGoInTimeOrderedInput) {
  mergeWithLateRecords(true);
}

TEST(RecordSorter, LateRecordsWhereTheyGoAcrossRuns) {
  mergeWithLateRecords(false);
}

// A record that comes out of order unannounced is sorted with its stream: still in order.
TEST(RecordSorter, UnexpectedLateRecordsSortTheirStream) {
  TempDir dir;
  RecordSorter sorter(dir.path() / "x.prv", size_t{1} << 20);
  std::vector<std::string> got;
  for (Tick t : {5, 6, 7, 8}) sorter.add(t, 1, 0, std::to_string(t));
  TextBuffer late;
  late.append("1");
  sorter.add(1, 2, 0, late, true);  // not expected: appended, out of order
  sorter.drain([&](std::string_view line) { got.emplace_back(line); });
  EXPECT_EQ(got, (std::vector<std::string>{"1", "5", "6", "7", "8"}));
  EXPECT_EQ(sorter.sortedStreams(), 1u);
}

}  // namespace
}  // namespace mtf::paraver
