// Fuzzes the TAU reader: input = events.0.edf text, "\n@@TRC@@\n", tautrace.0.0.0.trc bytes.
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [edf, trc] = mtf::fuzz::splitInput(data, size, "\n@@TRC@@\n");
  return mtf::fuzz::readTraceFromFiles({{"events.0.edf", edf}, {"tautrace.0.0.0.trc", trc}}, "",
                                       "tau");
}
