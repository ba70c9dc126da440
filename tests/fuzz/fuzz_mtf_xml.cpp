// Fuzzes the MTF XML reader.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return mtf::fuzz::readTraceFromFiles(
      {{"t.mtf.xml", std::string(reinterpret_cast<const char*>(data), size)}}, "t.mtf.xml",
      "mtf-xml");
}
