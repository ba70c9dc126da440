// The built-in vocabulary of archive version 6 (docs/mtf-format.md section 3.1): what
// tracers write into every trace (MPI, OpenMP, CUDA, OpenCL, POSIX I/O and PAPI names, TAU's
// metadata keys and edf lines, Extrae's .pcf labels), a text file built from public sources
// (vocabulary/README.md) and embedded at build time. A version-6 Structure chunk's LZMA2
// stream has it as its preset dictionary: on small traces the definitions are most of the
// archive, and these words are much of the definitions.
#pragma once

#include <cstdint>
#include <span>

namespace mtf::mtfbin {

// The vocabulary's bytes (vocabulary/vocabulary.txt; its size and SHA-256 are part of the
// format, and the build refuses a file with other bytes).
std::span<const uint8_t> builtInVocabulary();

}  // namespace mtf::mtfbin
