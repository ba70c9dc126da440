// Bad input: each defect gets an InputError naming the file and the record.
#include <gtest/gtest.h>

#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_reader.hpp"
#include "converters/tau/tau_test_util.hpp"
#include "util/error.hpp"

namespace mtf::tau {
namespace {

namespace fs = std::filesystem;
using testing::CollectSink;
using testing::ScratchDir;
using testing::writeBytes;

const char* kEdf =
    "3 dynamic_trace_events\n"
    "# FunctionId Group Tag \"Name Type\" Parameters\n"
    "1 TAU_USER 0 \"main \" EntryExit\n"
    "60000 TRACER 0 \"EV_INIT\" none\n"
    "60003 TRACER 0 \"FLUSH_CLOSE\" none\n";

std::string recordsBytes(const std::vector<Record>& records, RecordFormat f = {}) {
  std::string bytes(records.size() * f.size, '\0');
  for (size_t i = 0; i < records.size(); ++i)
    encodeRecord(records[i], f, reinterpret_cast<unsigned char*>(bytes.data() + i * f.size));
  return bytes;
}

std::vector<Record> goodRecords() {
  return {{60000, 0, 0, 3, 100}, {1, 0, 0, 1, 110}, {1, 0, 0, -1, 120}, {60003, 0, 0, 0, 130}};
}

// Writes a one-thread trace and returns the message of the InputError reading it raises.
std::string errorReading(const ScratchDir& dir, const std::string& trc, bool withEdf = true) {
  writeBytes(dir.path() / "tautrace.0.0.0.trc", trc);
  if (withEdf) writeBytes(dir.path() / "events.0.edf", kEdf);
  try {
    TauReader reader(dir.path(), {});
    CollectSink sink;
    reader.read(sink);
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.what();
  }
  return "no error";
}

TEST(TauBadInput, GoodTraceReads) {
  ScratchDir dir("good");
  EXPECT_EQ(errorReading(dir, recordsBytes(goodRecords())), "no error");
}

// TAU's reader (TAU_tf) reads a file cut in the middle of a record as if it ended before
// it: mtf reads the whole records, warns naming the partial one, and --strict refuses.
TEST(TauBadInput, TruncatedRecordEndsTheFileWithAWarning) {
  ScratchDir dir("truncated");
  writeBytes(dir.path() / "tautrace.0.0.0.trc", recordsBytes(goodRecords()) + "12345");
  writeBytes(dir.path() / "events.0.edf", kEdf);
  ::testing::internal::CaptureStderr();
  TauReader reader(dir.path(), {});
  CollectSink sink;
  reader.read(sink);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(sink.events.size(), goodRecords().size());
  EXPECT_NE(warning.find("tautrace.0.0.0.trc: record 4: truncated record (5 of 24 bytes): the "
                         "records before it are read"),
            std::string::npos)
      << warning;
  ReadOptions strict;
  strict.strict = true;
  TauReader refusing(dir.path(), strict);
  try {
    refusing.definitions();
    ADD_FAILURE() << "--strict read a partial record";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("record 4: truncated record"), std::string::npos);
  }
}

TEST(TauBadInput, UnknownEventId) {
  ScratchDir dir("unknown");
  auto records = goodRecords();
  records[2].event = 99;
  const std::string message = errorReading(dir, recordsBytes(records));
  EXPECT_NE(message.find("tautrace.0.0.0.trc: record 2: unknown event id 99"), std::string::npos)
      << message;
}

TEST(TauBadInput, EdfMissing) {
  ScratchDir dir("noedf");
  const std::string message = errorReading(dir, recordsBytes(goodRecords()), false);
  EXPECT_NE(message.find("events.0.edf missing"), std::string::npos) << message;
}

// Incomplete copies of a real trace: recognised by any one of its files (looksLikeTau),
// then refused naming what is missing.
TEST(TauBadInput, IncompleteTraceNamesTheMissingFile) {
  const fs::path real = MTF_DATA_DIR "/tau/opencl-l5";
  struct Case {
    std::vector<std::string> kept;
    std::string input;  // relative to the copy; "" = the directory
    std::string message;
  };
  const Case cases[] = {
      {{"tautrace.0.0.0.trc", "tautrace.0.0.1.trc"},
       "",
       "tautrace.0.0.0.trc: event definitions events.0.edf missing beside it"},
      {{"tautrace.0.0.0.trc"},
       "tautrace.0.0.0.trc",
       "tautrace.0.0.0.trc: event definitions events.0.edf missing beside it"},
      {{"events.0.edf"},
       "",
       "events.0.edf: its thread files tautrace.0.<context>.<thread>.trc are missing beside it"},
      {{"events.0.edf"},
       "events.0.edf",
       "events.0.edf: its thread files tautrace.0.<context>.<thread>.trc are missing beside it"},
      {{"tau.trc"}, "", "tau.trc: event definitions tau.edf missing beside it"},
      {{"tau.trc"}, "tau.trc", "tau.trc: event definitions tau.edf missing beside it"},
      {{"tau.edf"}, "tau.edf", "tau.edf: tau.trc missing beside it"},
  };
  for (const Case& c : cases) {
    ScratchDir dir("incomplete");
    for (const std::string& name : c.kept) fs::copy_file(real / name, dir.path() / name);
    const fs::path input = c.input.empty() ? dir.path() : dir.path() / c.input;
    EXPECT_TRUE(looksLikeTau(input)) << input;
    try {
      TauReader reader(input, {});
      CollectSink sink;
      reader.read(sink);
      ADD_FAILURE() << input << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
      EXPECT_EQ(std::string(e.what()), (dir.path() / c.message).string()) << input;
    }
  }
}

// TAU's reader reads a record whose timestamp goes back; mtf skips it (a thread's events
// stay in time order) with one warning naming the first, and --strict refuses it.
TEST(TauBadInput, TimestampGoingBackwardsIsSkippedWithAWarning) {
  ScratchDir dir("backwards");
  auto records = goodRecords();
  records[3].time = 115;
  records.push_back({60003, 0, 0, 0, 112});
  writeBytes(dir.path() / "tautrace.0.0.0.trc", recordsBytes(records));
  writeBytes(dir.path() / "events.0.edf", kEdf);
  ::testing::internal::CaptureStderr();
  TauReader reader(dir.path(), {});
  CollectSink sink;
  reader.read(sink);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(sink.events.size(), records.size() - 2);
  EXPECT_NE(warning.find("2 TAU records skipped: timestamp before the previous one of its "
                         "thread (first at "),
            std::string::npos)
      << warning;
  EXPECT_NE(warning.find("tautrace.0.0.0.trc: record 3)"), std::string::npos) << warning;
  EXPECT_EQ(reader.inputRecords().at("records going back in time (skipped, see the warning)"), 2u);
  ReadOptions strict;
  strict.strict = true;
  TauReader refusing(dir.path(), strict);
  CollectSink none;
  EXPECT_THROW(refusing.read(none), InputError);
}

TEST(TauBadInput, ByteOrderCannotBeTold) {
  ScratchDir dir("order");
  auto records = goodRecords();
  records[0].par = 5;  // not EV_INIT's 3 in any layout
  const std::string message = errorReading(dir, recordsBytes(records));
  EXPECT_NE(message.find("tautrace.0.0.0.trc: record 0:"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot be told"), std::string::npos) << message;
}

TEST(TauBadInput, EmptyThreadFile) {
  ScratchDir dir("empty");
  EXPECT_NE(errorReading(dir, "").find("record 0"), std::string::npos);
}

TEST(TauBadInput, MalformedEdfLineNamesTheLine) {
  ScratchDir dir("edfline");
  writeBytes(dir.path() / "tautrace.0.0.0.trc", recordsBytes(goodRecords()));
  writeBytes(dir.path() / "events.0.edf", std::string(kEdf) + "7 TAU_USER zero \"f\" EntryExit\n");
  try {
    TauReader reader(dir.path(), {});
    reader.definitions();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("events.0.edf: line 6"), std::string::npos) << e.what();
  }
}

TEST(TauBadInput, LenientModeSkipsAndCounts) {
  ScratchDir dir("lenient");
  auto records = goodRecords();
  records[2].event = 99;
  writeBytes(dir.path() / "tautrace.0.0.0.trc", recordsBytes(records));
  writeBytes(dir.path() / "events.0.edf", kEdf);
  ReadOptions options;
  options.lenient = true;
  TauReader reader(dir.path(), options);
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events.size(), 3u);
  EXPECT_EQ(reader.unmodelled().begin()->second, 1u);
}

TEST(TauBadInput, BigEndian32ByteTraceReads) {
  ScratchDir dir("be32");
  writeBytes(dir.path() / "tautrace.0.0.0.trc", recordsBytes(goodRecords(), {32, true}));
  writeBytes(dir.path() / "events.0.edf", kEdf);
  TauReader reader(dir.path(), {});
  CollectSink sink;
  reader.read(sink);
  ASSERT_EQ(sink.events.size(), 4u);
  EXPECT_EQ(sink.events[1].kind, EventKind::Enter);
  EXPECT_EQ(sink.events[1].time, 110u);
}

}  // namespace
}  // namespace mtf::tau
