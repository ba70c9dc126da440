#include "converters/tau/tau_records.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "converters/tau/tau_edf.hpp"
#include "converters/tau/tau_test_util.hpp"

namespace mtf::tau {
namespace {

TEST(TauRecords, BothLayoutsAndByteOrdersRoundTrip) {
  const Record r{60005, 3, 17, -123456789012345, 1677213055569501};
  for (RecordFormat f : {RecordFormat{24, false}, RecordFormat{24, true}, RecordFormat{32, false},
                         RecordFormat{32, true}}) {
    unsigned char bytes[32] = {};
    encodeRecord(r, f, bytes);
    EXPECT_EQ(decodeRecord(bytes, f), r) << f.name();
    EXPECT_EQ(RecordFormat::fromName(f.name()), f);
  }
}

TEST(TauRecords, LayoutMatchesTheFormatDescription) {
  // 24-byte little-endian: int32 ev, uint16 nid, uint16 tid, int64 par, uint64 ti.
  unsigned char bytes[24] = {};
  encodeRecord(Record{0x01020304, 0x0506, 0x0708, 3, 0x1122334455667788}, {24, false}, bytes);
  EXPECT_EQ(bytes[0], 0x04);
  EXPECT_EQ(bytes[3], 0x01);
  EXPECT_EQ(bytes[4], 0x06);
  EXPECT_EQ(bytes[6], 0x08);
  EXPECT_EQ(bytes[8], 3);
  EXPECT_EQ(bytes[16], 0x88);
  EXPECT_EQ(bytes[23], 0x11);
  // 32-byte big-endian: int64 ev, uint16 nid, uint16 tid, uint32 pad, int64 par, uint64 ti.
  unsigned char big[32] = {};
  encodeRecord(Record{60000, 2, 9, 3, 77}, {32, true}, big);
  EXPECT_EQ(big[6], 0xEA);
  EXPECT_EQ(big[7], 0x60);
  EXPECT_EQ(big[9], 2);
  EXPECT_EQ(big[11], 9);
  EXPECT_EQ(big[23], 3);
  EXPECT_EQ(big[31], 77);
}

TEST(TauRecords, FirstRecordTellsLayoutAndByteOrder) {
  for (RecordFormat f : {RecordFormat{24, false}, RecordFormat{24, true}, RecordFormat{32, false},
                         RecordFormat{32, true}}) {
    unsigned char bytes[32] = {};
    encodeRecord(Record{60000, 0, 1, kInitParameter, 1677213055569501}, f, bytes);
    const auto fits = formatsFittingFirstRecord(bytes, f.size, 60000);
    ASSERT_EQ(fits.size(), 1u) << f.name();
    EXPECT_EQ(fits.front(), f);
  }
  unsigned char notInit[32] = {};
  encodeRecord(Record{60000, 0, 1, 4, 5}, {24, false}, notInit);
  EXPECT_TRUE(formatsFittingFirstRecord(notInit, 24, std::nullopt).empty());
}

TEST(TauRecords, MessageParameterPacksEveryFieldAtItsBits) {
  const Message m{0xABCD, 0x1234, 0x3FFFFFF, 42};
  const uint64_t p = static_cast<uint64_t>(packMessage(m));
  EXPECT_EQ(p & 0xFFFF, 0xFFFFu);        // length[15:0]
  EXPECT_EQ((p >> 16) & 0xFF, 0x34u);    // tag[7:0]
  EXPECT_EQ((p >> 24) & 0xFF, 0xCDu);    // other[7:0]
  EXPECT_EQ((p >> 32) & 0x3FF, 0x3FFu);  // length[25:16]
  EXPECT_EQ((p >> 42) & 0x3F, 42u);      // communicator
  EXPECT_EQ((p >> 48) & 0xFF, 0x12u);    // tag[15:8]
  EXPECT_EQ((p >> 56) & 0xFF, 0xABu);    // other[15:8]
  EXPECT_EQ(unpackMessage(static_cast<int64_t>(p)), m);
  EXPECT_EQ(unpackMessage(packMessage(Message{1, 7, 1000, 0})), (Message{1, 7, 1000, 0}));
}

TEST(TauRecords, ReaderStreamsARealThreadFileRecordByRecord) {
  RecordReader reader(testing::kL5 / "tautrace.0.0.1.trc", 60000);
  EXPECT_EQ(reader.format(), (RecordFormat{24, false}));
  EXPECT_EQ(reader.recordCount(), 6u);  // the 144-byte file
  Record r;
  std::vector<Record> all;
  while (reader.next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all.front().event, kEvInit);
  EXPECT_EQ(all.front().thread, 1);
  EXPECT_EQ(reader.lastRecord(), all.back());
}

TEST(TauRecords, AppenderWritesWhatTheReaderReads) {
  testing::ScratchDir scratch("appender");
  const auto path = scratch.path() / "t.trc";
  RecordAppender out(path, {32, true});
  out.append(Record{60000, 1, 2, kInitParameter, 10});
  for (int i = 0; i < 5000; ++i) out.append(Record{7, 1, 2, i % 2 ? -1 : 1, uint64_t(11 + i)});
  out.flush();
  RecordReader in(path, std::nullopt);
  EXPECT_EQ(in.format(), (RecordFormat{32, true}));
  EXPECT_EQ(in.recordCount(), 5001u);
  Record r;
  uint64_t n = 0;
  while (in.next(r)) ++n;
  EXPECT_EQ(n, 5001u);
  EXPECT_EQ(r.time, 5010u);
}

TEST(TauEdf, ParsesNamesWithSpacesQuotesAndTrailingSpace) {
  const auto e = parseEdfLine("12 TAU_USER 0 \"int f(\"a\") C \" EntryExit");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->id, 12);
  EXPECT_EQ(e->group, "TAU_USER");
  EXPECT_EQ(e->name, "int f(\"a\") C ");
  EXPECT_EQ(e->param, "EntryExit");
  EXPECT_EQ(e->eventClass(), EventClass::Region);
  const auto m = parseEdfLine("60007 TAU_MESSAGE -7 \"MESSAGE_SEND\" par");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->tag, -7);
  EXPECT_EQ(m->eventClass(), EventClass::Send);
  EXPECT_FALSE(parseEdfLine("x TAU_USER 0 \"f\" EntryExit"));
  EXPECT_FALSE(parseEdfLine("1 TAU_USER 0 f EntryExit"));
}

TEST(TauEdf, DisplayNamesDropTheLanguageTagAndTrailingSpaces) {
  EXPECT_EQ(displayName("cl_int clFinish(cl_command_queue) C "),
            "cl_int clFinish(cl_command_queue)");
  EXPECT_EQ(displayName("mat_mult "), "mat_mult");
  EXPECT_EQ(displayName(".TAU application "), ".TAU application");
  EXPECT_EQ(displayName("main() int (int, char **)"), "main() int (int, char **)");
  EXPECT_EQ(displayName("Vitamin C"), "Vitamin C");  // no signature: kept
}

TEST(TauEdf, DeclaredCountOneTooManyIsNormal) {
  ::testing::internal::CaptureStderr();
  const EdfTable t = readEdf(testing::kL5 / "events.0.edf");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // what TAU itself writes
  EXPECT_EQ(t.declared, t.entries.size() + 1);
  EXPECT_TRUE(t.find(60000));
  EXPECT_EQ(t.find(60000)->name, "EV_INIT");
  EXPECT_EQ(t.find(1)->name, ".TAU application ");
}

TEST(TauEdf, DeclaredCountOtherwiseWrongIsAWarning) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mtf-edf-count";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "events.0.edf") << "5 dynamic_trace_events\n"
                                      << "1 TAU_USER 0 \"main\" EntryExit\n";
  ::testing::internal::CaptureStderr();
  const EdfTable t = readEdf(dir / "events.0.edf");
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("declares 5 events, lists 1"), std::string::npos) << warning;
  EXPECT_EQ(t.entries.size(), 1u);
}

}  // namespace
}  // namespace mtf::tau

namespace mtf::tau {
namespace {

// TAU's reader keeps an id's first definition and ignores the lines defining it again.
TEST(TauEdf, AnIdDefinedAgainKeepsItsFirstDefinition) {
  ::testing::internal::CaptureStderr();
  const EdfTable t = parseEdf(
      "2 dynamic_trace_events\n1 TAU_USER 0 \"main\" EntryExit\n1 TAU_USER 0 \"other\" EntryExit\n"
      "2 TAU_USER 0 \"f\" EntryExit\n",
      "x.edf", true);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(t.entries.size(), 2u);
  EXPECT_EQ(t.find(1)->name, "main");
  EXPECT_NE(warning.find("x.edf: 1 event ids defined again (first at line 3)"), std::string::npos)
      << warning;
}

}  // namespace
}  // namespace mtf::tau
