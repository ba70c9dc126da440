// LineReader: lines of every length come back whole across buffer refills and growth,
// from plain and gzip files, with "\r\n" and a last line without an end.
#include "converters/paraver/line_reader.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <random>

#include "converters/paraver/paraver_test_util.hpp"

namespace mtf::paraver {
namespace {

// Lines from 0 to ~300 KB long (past the first 16 KB buffer and its doublings), some with
// "\r\n"; the total is a few MB so the reader reaches its largest chunk.
std::vector<std::string> mixedLines() {
  std::mt19937 rng(7);
  std::vector<std::string> lines;
  for (int i = 0; i < 400; ++i) {
    const size_t length = i % 50 == 0 ? 100000 + rng() % 200000 : rng() % 300;
    std::string line(length, 'a');
    for (char& c : line) c = static_cast<char>('a' + rng() % 26);
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> readAll(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> out;
  for (std::string_view line; reader.next(line);) out.emplace_back(line);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i)
    text += lines[i] + (i + 1 == lines.size() ? "" : i % 3 == 0 ? "\r\n" : "\n");
  return text;  // the last line has no line end
}

TEST(LineReader, PlainFileLinesSurviveRefillsAndGrowth) {
  testing::TempDir dir;
  const auto lines = mixedLines();
  const std::string path = dir.path() / "t.prv";
  std::ofstream(path, std::ios::binary) << joined(lines);
  EXPECT_EQ(readAll(path), lines);
}

TEST(LineReader, GzipFileLinesSurviveRefillsAndGrowth) {
  testing::TempDir dir;
  const auto lines = mixedLines();
  const std::string path = dir.path() / "t.prv.gz";
  gzFile out = gzopen(path.c_str(), "wb1");
  ASSERT_NE(out, nullptr);
  const std::string text = joined(lines);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  gzclose(out);
  EXPECT_EQ(readAll(path), lines);
}

}  // namespace
}  // namespace mtf::paraver
