// Fuzzes the Paraver reader: input = .prv text, then optionally "\n@@PCF@@\n" and a .pcf.
#include "converters/paraver/header.hpp"
#include "fuzz_target.hpp"
#include "util/error.hpp"

namespace {

// Every declared thread becomes a location before the first record (about 500 bytes and a
// few microseconds each, up to 2^18 threads in a small file: see paraver_reader.cpp).
// Headers declaring more than this are only parsed: with them in the corpus the fuzzer ran
// at 200 executions/s instead of thousands. Large counts are covered by the golden
// bad-input cases (paraver_50m_threads, paraver_1m_threads_short_file).
constexpr uint64_t kFuzzedThreads = 4096;

bool declaresFewThreads(const std::string& prv) {
  try {
    const std::string_view firstLine = std::string_view(prv).substr(0, prv.find('\n'));
    return mtf::paraver::parseHeader(firstLine, "t.prv").threadCount() <= kFuzzedThreads;
  } catch (const mtf::Error&) {
    return true;  // the reader refuses it the same way, at once
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [prv, pcf] = mtf::fuzz::splitInput(data, size, "\n@@PCF@@\n");
  if (!declaresFewThreads(prv)) return 0;
  std::vector<mtf::fuzz::FuzzFile> files = {{"t.prv", prv}};
  if (!pcf.empty()) files.push_back({"t.pcf", pcf});
  return mtf::fuzz::readTraceFromFiles(files, "t.prv", "paraver");
}
