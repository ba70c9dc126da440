#include "converters/mtf/binary/vocabulary.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "converters/mtf/binary/lzma_codec.hpp"
#include "values/zlib_codec.hpp"

namespace mtf::mtfbin {
namespace {

// Definitions texts as tracers write them, in an order and with values of no real trace.
std::vector<uint8_t> tracerWords() {
  std::string text;
  for (const char* name : {"MPI_Allreduce()", "MPI_Comm_rank()", "MPI_Isend()", "MPI_Waitall()",
                           "MPI_Finalize()", "MPI_Init()", "MPI_Bcast()", "MPI_Irecv()"})
    text += std::string(name) + '\x01' + " MPI 0 \"" + name + " \" EntryExit\n";
  text += "CPU Cores | 4\nCache Size | 1024 KB\nOS Name | Linux\nMemory Size | 1 kB\n";
  text += "cl_int clFinish(cl_command_queue) C\ncl_int clReleaseKernel(cl_kernel) C\n";
  text += "Message size sent to node  : MPI_Isend() => .TAU application\n";
  return std::vector<uint8_t>(text.begin(), text.end());
}

TEST(Vocabulary, IsTheFileTheFormatNames) {
  const std::span<const uint8_t> v = builtInVocabulary();
  EXPECT_EQ(v.size(), 51347u);  // docs/mtf-format.md section 3.1
  EXPECT_EQ(compaction::crc32Of(v.data(), v.size()), 0x885372cfu);
}

TEST(Vocabulary, AsPresetShrinksTracerWordsAndDecodesOnlyWithIt) {
  const std::vector<uint8_t> body = tracerWords();
  const std::vector<uint8_t> plain = lzmaCompress(body.data(), body.size());
  const std::vector<uint8_t> preset = lzmaCompress(body.data(), body.size(), builtInVocabulary());
  ASSERT_FALSE(preset.empty());
  EXPECT_LT(preset.size() * 2, plain.size());
  std::vector<uint8_t> out;
  ASSERT_TRUE(lzmaDecompress(preset.data(), preset.size(), body.size(), out, builtInVocabulary()));
  EXPECT_EQ(out, body);
  // Without the vocabulary (a version-5 reading) the stream is refused or wrong, never equal.
  if (lzmaDecompress(preset.data(), preset.size(), body.size(), out)) {
    EXPECT_NE(out, body);
  }
  EXPECT_FALSE(
      lzmaDecompress(preset.data(), preset.size(), body.size() + 1, out, builtInVocabulary()));
  EXPECT_FALSE(
      lzmaDecompress(preset.data(), preset.size() - 2, body.size(), out, builtInVocabulary()));
}

TEST(Vocabulary, AsPresetKeepsEmptyAndUnrelatedDataExact) {
  std::vector<uint8_t> noise;
  uint32_t x = 12345;
  for (int i = 0; i < 3000; ++i)
    noise.push_back(static_cast<uint8_t>((x = x * 1103515245 + 12345) >> 24));
  for (const std::vector<uint8_t>& data : {noise, std::vector<uint8_t>{}}) {
    const std::vector<uint8_t> packed = lzmaCompress(data.data(), data.size(), builtInVocabulary());
    std::vector<uint8_t> out;
    ASSERT_TRUE(
        lzmaDecompress(packed.data(), packed.size(), data.size(), out, builtInVocabulary()));
    EXPECT_EQ(out, data);
  }
}

}  // namespace
}  // namespace mtf::mtfbin
