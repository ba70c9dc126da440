// The worked example of docs/mtf-format.md: a hand-made trace of two MPI ranks, small
// enough to print its archive byte by byte. Rank 0 calls MPI_Send twice inside main,
// rank 1 MPI_Recv twice; every send carries 64 bytes with tag 7.
#pragma once

#include <filesystem>

namespace mtf::spec {

// Writes the example as an MTF binary archive (no loop annotation) to `path`.
void writeExampleArchive(const std::filesystem::path& path);

}  // namespace mtf::spec
