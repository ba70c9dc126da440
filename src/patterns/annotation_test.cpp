// --patterns: the MTF binary writer stores the pattern results as the trace annotation
// "patterns", and they read back as the same JSON the analysis gives.
#include <gtest/gtest.h>

#include <filesystem>

#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/binary/mtf_binary_format.hpp"
#include "gen/generator.hpp"
#include "patterns/analysis.hpp"

namespace mtf::patterns {
namespace {

std::filesystem::path writeRing(bool patterns) {
  const std::filesystem::path path = std::filesystem::path(MTF_BINARY_DIR) /
                                     ("patterns_annotation_" + std::to_string(patterns) + ".mtf");
  WriteOptions options;
  options.patterns = patterns;
  auto writer = mtfBinaryFormat().openWriter(path, options);
  gen::GenOptions o;
  o.kernel = gen::Kernel::Ring;
  o.ranks = 6;
  o.iterations = 7;
  gen::generate(o, *writer);
  return path;
}

const compaction::Annotation* findPatterns(const compaction::CompactModel& model) {
  for (const auto& a : model.annotations)
    if (a.name == kPatternsAnnotation) return &a;
  return nullptr;
}

TEST(PatternsAnnotation, StoredInTheMtfArchiveWhenAsked) {
  const auto path = writeRing(true);
  mtfbin::ArchiveReader reader(path);
  const compaction::Annotation* a = findPatterns(*reader.model());
  ASSERT_NE(a, nullptr);
  const std::string json = jsonOfAnnotationBlob(a->data);
  EXPECT_NE(json.find("\"pattern\":\"ring\""), std::string::npos) << json.substr(0, 400);
  EXPECT_NE(json.find("\"processes\":6"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(PatternsAnnotation, AbsentByDefault) {
  const auto path = writeRing(false);
  mtfbin::ArchiveReader reader(path);
  EXPECT_EQ(findPatterns(*reader.model()), nullptr);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace mtf::patterns
