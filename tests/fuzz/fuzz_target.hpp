// Shared body of the file-based fuzz targets: the fuzzer's bytes become one or more
// files in a private temp directory, then the trace is opened through the registry and
// read to the end. Any mtf::Error is a correct refusal; anything else (a crash, a
// sanitizer report, another exception, a hang) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mtf::fuzz {

// A file to create: name inside the temp directory, and its bytes.
using FuzzFile = std::pair<std::string, std::string>;

// Splits `data` at the first occurrence of `separator` (for inputs made of two files);
// without the separator, everything goes to the first part.
std::pair<std::string, std::string> splitInput(const uint8_t* data, size_t size,
                                               const std::string& separator);

// Writes `files`, opens `openPath` (relative to the temp dir; empty = the dir itself)
// with the reader of `format` (a registry name: the target's own parser, whatever the
// content looks like, so that mutations do not wander into other readers) and streams
// every event into a sink that drops them. Returns 0.
int readTraceFromFiles(const std::vector<FuzzFile>& files, const std::string& openPath,
                       const std::string& format);

}  // namespace mtf::fuzz
