#include "converters/otf2/otf2_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "converters/otf2/otf2_property_store.hpp"
#include "converters/otf2/otf2_reader.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::kTraces;
using testing::TempDir;

void copyThrough(const std::filesystem::path& input, const std::filesystem::path& output) {
  Otf2Reader reader(input, {});
  Otf2Writer writer(output);
  reader.read(writer);
}

// The creator and the properties ("name = value", sorted: their order means nothing) as
// `otf2-print -A` lists them.
std::vector<std::string> anchorFacts(const std::filesystem::path& anchor) {
  std::vector<std::string> facts;
  std::istringstream in(testing::run("otf2-print -A " + testing::quoted(anchor)).output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Property name", 0) == 0) {
      std::string value;
      std::getline(in, value);
      facts.push_back(line + " = " + value);
    } else if (line.rfind("Number of properties", 0) == 0 || line.rfind("Creator", 0) == 0) {
      facts.push_back(line);
    }
  }
  std::sort(facts.begin(), facts.end());
  return facts;
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, Otf2PrintSeesIdenticalEventsAndAcceptsTheOutput) {
  TempDir tmp;
  const std::filesystem::path input = kTraces + GetParam();
  const std::filesystem::path output = tmp.path() / "copy.otf2";
  copyThrough(input, output);
  const auto original = testing::otf2PrintEventLines(input / "traces.otf2");
  const auto copied = testing::otf2PrintEventLines(output);
  ASSERT_FALSE(original.empty());
  EXPECT_EQ(copied.size(), original.size());
  EXPECT_TRUE(copied == original);
  const auto check = testing::run("otf2-print --silent -Werror " + testing::quoted(output));
  EXPECT_EQ(check.status, 0) << check.output;
  EXPECT_EQ(anchorFacts(output), anchorFacts(input / "traces.otf2"));
}

TEST_P(RoundTrip, DefinitionsSurviveExceptTheCorrectedEventCounts) {
  TempDir tmp;
  const std::filesystem::path output = tmp.path() / "copy.otf2";
  copyThrough(kTraces + GetParam(), output);
  Otf2Reader original(kTraces + GetParam(), {});
  Otf2Reader copy(output, {});
  const Definitions& a = original.definitions();
  const Definitions& b = copy.definitions();
  EXPECT_EQ(a.clock, b.clock);
  EXPECT_EQ(a.info.creator, b.info.creator);
  EXPECT_EQ(a.info.properties, b.info.properties);  // OTF2's own properties included
  ASSERT_EQ(a.records().size(), b.records().size());
  for (size_t i = 0; i < a.records().size(); ++i) {
    if (a.records()[i].kind == DefKind::Location) continue;
    EXPECT_EQ(a.records()[i], b.records()[i]) << "record " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Otf2, RoundTrip,
                         ::testing::Values("pipit-ping-pong", "pipit-ping-pong-papi",
                                           "sst-macro-mpi", "fastotf2-mi300"));

// A small trace with everything OTF2 has no record for.
struct Synthetic {
  Definitions defs;
  std::vector<Event> events;  // interleaved between the two locations
};

Synthetic makeSynthetic() {
  Synthetic s;
  DefinitionBuilder b(s.defs);
  s.defs.clock = {1000000, 5, 900, kUndefinedId};
  s.defs.info = {
      "paraver",
      "Extrae 4.0",
      "1",
      {{"paraver.pcf", "STATES\n0 Idle\n1 Running\n"}, {"Mixed_Case key!", "value with\nnewline"}}};
  const uint64_t node = b.systemTreeNode("node", "machine");
  const uint64_t group = b.locationGroup("rank 0", node);
  b.location(0, "thread 0", group);
  b.location(1ull << 37, "thread 1", group);
  defineMpiWorld(b, {0, 1ull << 37});
  const Ref main = b.region("main", RegionRole::Function, Paradigm::User);
  const Ref metric = b.metric("PAPI_TOT_CYC", "cycles", 4);
  b.group("nobody", 2 /* OTF2_GROUP_TYPE_REGIONS */, Paradigm::User, {});  // empty
  const Ref propertyName = b.string("clock speed");
  s.defs.add({DefKind::LocationProperty, {0, propertyName, 10 /* DOUBLE */, bitsOf(2.5e9)}, {}});
  s.defs.add(
      {DefKind::LocationProperty, {0, propertyName, 7 /* INT32 */, bitsOf(int64_t{-7})}, {}});
  const Ref attrName = b.string("colour");
  s.defs.add({DefKind::Attribute, {0, attrName, attrName, 3 /* UINT32 */}, {}});
  // A large value, as a Paraver .pcf can be.
  std::string big;
  for (int i = 0; big.size() < 200000; ++i) big += "VALUES\n" + std::to_string(i) + " label\n";
  s.defs.info.properties["paraver.big"] = big;
  const Ref arg = b.string("--fast");
  const LocationId l0 = 0, l1 = 1ull << 37;
  auto add = [&](EventKind kind, LocationId loc, Tick t, std::vector<uint64_t> fields,
                 std::vector<EventAttribute> attrs = {}) {
    s.events.push_back({kind, loc, t, std::move(fields), std::move(attrs)});
  };
  add(EventKind::ProgramBegin, l0, 10, {b.string("prog"), 2, arg, arg});
  add(EventKind::Enter, l1, 11, {main}, {{0, 3, 7}});
  add(EventKind::State, l0, 12, {40, 1});
  add(EventKind::Generic, l1, 13, {50000001, bitsOf(int64_t{-3})}, {{0, 3, 9}});
  add(EventKind::Metric, l0, 14, {metric, 1, 4, 123456789});
  add(EventKind::MpiSend, l0, 15, {1, 0, 7, 1024});
  add(EventKind::State, l1, 16, {60, 0});
  add(EventKind::Leave, l1, 17, {main});
  add(EventKind::Generic, l0, 18, {42, 5});
  return s;
}

std::vector<Event> byLocation(std::vector<Event> events, const Definitions& defs) {
  std::vector<LocationId> order;
  for (const LocationView& l : defs.locations()) order.push_back(l.id);
  std::stable_sort(events.begin(), events.end(), [&](const Event& a, const Event& b) {
    return std::find(order.begin(), order.end(), a.location) <
           std::find(order.begin(), order.end(), b.location);
  });
  return events;
}

TEST(Otf2Writer, SyntheticTraceWithStatesGenericsAndPropertiesRoundTripsExactly) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  const std::filesystem::path output = tmp.path() / "synthetic.otf2";
  Otf2Writer writer(output);
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  writer.end();

  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events, byLocation(s.events, s.defs));
  EXPECT_EQ(sink.defs.info.properties, s.defs.info.properties);
  EXPECT_EQ(sink.defs.info.creator, "Extrae 4.0");
  EXPECT_EQ(sink.defs.clock, s.defs.clock);
  // The definitions come back as given, with the real event counts filled in.
  Definitions expected;
  for (DefRecord r : s.defs.records()) {
    if (r.kind == DefKind::Location) r.fields[3] = r.fields[0] == 0 ? 5 : 4;
    expected.add(r);
  }
  EXPECT_EQ(sink.defs.records(), expected.records());
  const auto check = testing::run("otf2-print --silent -Werror " + testing::quoted(output));
  EXPECT_EQ(check.status, 0) << check.output;
  const auto counts = testing::otf2PrintCounts(output);
  // The two states as regions on their threads' states locations (the convention).
  EXPECT_EQ(counts.count("PARAMETER_UINT64"), 0u);
  EXPECT_EQ(counts.at("ENTER"), 3u);
  EXPECT_EQ(counts.at("LEAVE"), 3u);
  EXPECT_EQ(counts.at("PARAMETER_INT64"), 2u);  // the two generics
}

// States that nest become regions on the states location, each Enter in time order with
// its Leave at the state's end (at its begin if it ends before it begins); one that would
// cross a state still open there is written the old way (a parameter event). All come back as
// the same States, attributes included, at the same place among their thread's events.
TEST(Otf2Writer, StatesThatCannotNestFallBackToParametersAndAllRoundTrip) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  s.events.clear();
  const LocationId l0 = 0;
  auto add = [&](EventKind kind, Tick t, std::vector<uint64_t> fields,
                 std::vector<EventAttribute> attrs = {}) {
    s.events.push_back({kind, l0, t, std::move(fields), std::move(attrs)});
  };
  add(EventKind::State, 10, {100, 1});  // region [10, 100]
  add(EventKind::Generic, 10, {7, 1});
  add(EventKind::State, 20, {50, 3}, {{0, 3, 9}});  // nested in it: region
  add(EventKind::State, 40, {120, 2});              // crosses [10, 100]: parameter
  add(EventKind::State, 60, {60, 1});               // zero length, nested: region
  add(EventKind::State, 70, {65, 1});               // ends before it begins: parameter
  add(EventKind::Generic, 70, {7, 0});
  add(EventKind::State, 200, {300, 2});  // after the others: region
  const std::filesystem::path output = tmp.path() / "states.otf2";
  Otf2Writer writer(output);
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  writer.end();

  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events, s.events);
  EXPECT_EQ(sink.defs.count(DefKind::Location), 2u);  // the states location is not shown
  const auto check = testing::run("otf2-print --silent -Werror " + testing::quoted(output));
  EXPECT_EQ(check.status, 0) << check.output;
  const auto counts = testing::otf2PrintCounts(output);
  EXPECT_EQ(counts.at("ENTER"), 5u);
  EXPECT_EQ(counts.at("LEAVE"), 5u);
  EXPECT_EQ(counts.at("PARAMETER_UINT64"), 1u);
  // The states location and the regions, named by the .pcf, as otf2-print lists them.
  const std::string defs = testing::run("otf2-print -G " + testing::quoted(output)).output;
  EXPECT_NE(defs.find("\"thread 0 states\""), std::string::npos) << defs;
  EXPECT_NE(defs.find("\"Running\""), std::string::npos) << defs;
  EXPECT_NE(defs.find("\"State 3\""), std::string::npos) << defs;
}

TEST(Otf2Writer, EventOfAnUndefinedLocationIsAnErrorNamingIt) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  Otf2Writer writer(tmp.path() / "bad.otf2");
  writer.begin(s.defs);
  Event e;
  e.set(EventKind::Enter, 99, 1, {0});
  try {
    writer.event(e);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("location 99"), std::string::npos) << error.what();
  }
}

// Issue 17: what does not fit OTF2's 256 KiB anchor (here 2 x 600 KB, as a TAU trace's edf
// texts) and empty values (which OTF2 cannot hold as properties) still round-trip, in an
// archive otf2-print accepts.
TEST(Otf2Writer, PropertiesLargerThanTheAnchorRoundTripInAnArchiveOtf2Reads) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  std::string edf;
  for (int i = 0; edf.size() < 600 * 1024; ++i)
    edf += std::to_string(i) + " TAU_USER 0 \"PetscErrorCode MatMult_" + std::to_string(i) +
           "(Mat, Vec, Vec) C \" EntryExit\n";
  s.defs.info.properties["tau.edf.0"] = edf;
  s.defs.info.properties["tau.edf.1"] = edf + "1";
  s.defs.info.properties["empty"] = "";
  const std::filesystem::path output = tmp.path() / "large.otf2";
  Otf2Writer writer(output);
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  writer.end();

  const auto check = testing::run("otf2-print --silent -Werror " + testing::quoted(output));
  EXPECT_EQ(check.status, 0) << check.output;
  EXPECT_LT(std::filesystem::file_size(output), kAnchorPropertyBudget);
  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.defs.info.properties, s.defs.info.properties);
  EXPECT_EQ(sink.events, byLocation(s.events, s.defs));
  EXPECT_EQ(sink.defs.records().size(), s.defs.records().size());
  EXPECT_TRUE(reader.warnings().empty());
}

// mtf's stored properties are plain strings to otf2-print: a broken pointer to them still
// reads as a plain OTF2 archive, with a warning (and is refused with --strict).
TEST(Otf2Writer, BrokenStoredPropertiesReadAsAPlainArchive) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  s.defs.info.properties["tau.edf.0"] = std::string(600 * 1024, 'e');
  const std::filesystem::path output = tmp.path() / "broken.otf2";
  Otf2Writer writer(output);
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  writer.end();
  std::fstream anchor(output, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(anchor)), std::istreambuf_iterator<char>());
  const size_t key = bytes.find(kStoredPropertiesName);
  ASSERT_NE(key, std::string::npos);
  const size_t digit = bytes.find_first_of("0123456789", key + kStoredPropertiesName.size());
  ASSERT_NE(digit, std::string::npos);
  anchor.seekp(static_cast<std::streamoff>(digit));
  anchor.put('x');
  anchor.close();
  Otf2Reader reader(output, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events, byLocation(s.events, s.defs));
  EXPECT_EQ(sink.defs.info.properties.count("tau.edf.0"), 0u);
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_NE(reader.warnings()[0].find("mtf's stored properties are left out"), std::string::npos)
      << reader.warnings()[0];
  ReadOptions strict;
  strict.strict = true;
  Otf2Reader refusing(output, strict);
  EXPECT_THROW(refusing.definitions(), InputError);
}

// OTF2_Archive_Close reports success even when it could not write the anchor (here: a
// creator longer than the whole anchor buffer); the writer's own check must not.
TEST(Otf2Writer, AnArchiveOtf2CannotReadBackIsAnIoErrorNamingIt) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  s.defs.info.creator = std::string(300 * 1024, 'c');
  const std::filesystem::path output = tmp.path() / "unreadable.otf2";
  Otf2Writer writer(output);
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  try {
    writer.end();
    FAIL() << "no error";
  } catch (const IoError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find(output.string() + ": OTF2 cannot read the archive just written"),
              std::string::npos)
        << what;
  }
}

// A path without the .otf2 extension names the archive <path>.otf2; the check after writing
// opens that anchor.
TEST(Otf2Writer, APathWithoutExtensionWritesAndChecksNameDotOtf2) {
  TempDir tmp;
  Synthetic s = makeSynthetic();
  Otf2Writer writer(tmp.path() / "plain");
  writer.begin(s.defs);
  for (const Event& e : s.events) writer.event(e);
  writer.end();
  EXPECT_TRUE(std::filesystem::is_regular_file(tmp.path() / "plain.otf2"));
  Otf2Reader reader(tmp.path() / "plain.otf2", {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events.size(), s.events.size());
}

}  // namespace
}  // namespace mtf::otf2
