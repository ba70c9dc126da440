// Fuzzes the pattern file parser (src/patterns/pattern_file.cpp). The first byte picks the
// trace's number of processes (1..64, as `mtf match` would pass it); the rest is the text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "patterns/library.hpp"
#include "util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t processes = 1 + data[0] % 64;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const mtf::patterns::PatternSpec spec =
        mtf::patterns::parsePatternText(text, processes, "fuzz.pattern");
    (void)mtf::patterns::edgesOf(spec);
  } catch (const mtf::Error&) {
    // A clear refusal is the correct answer to bad input.
  }
  return 0;
}
