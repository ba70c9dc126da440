// Fuzzes the Paraver reader: input = .prv text, then optionally "\n@@PCF@@\n" and a .pcf.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [prv, pcf] = mtf::fuzz::splitInput(data, size, "\n@@PCF@@\n");
  std::vector<mtf::fuzz::FuzzFile> files = {{"t.prv", prv}};
  if (!pcf.empty()) files.push_back({"t.pcf", pcf});
  return mtf::fuzz::readTraceFromFiles(files, "t.prv", "paraver");
}
