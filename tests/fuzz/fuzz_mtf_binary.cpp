// Fuzzes the MTF binary archive reader.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mtf::fuzz::readTraceFromFiles(
      {{"t.mtf", std::string(reinterpret_cast<const char*>(data), size)}}, "t.mtf", "mtf");
}
