// Texts an archive of version 4 names by number instead of spelling them (docs/mtf-format.md
// section 5.3, appendix C): the names of MPI's functions, which tools that trace MPI
// define as regions whether the program calls them or not (Score-P: some 230 of them),
// and texts that trace files repeat verbatim (Paraver's default states and colours).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace mtf::mtfbin {

std::span<const std::string_view> wellKnownStrings();
// The number of `text` in the table, if it is there.
std::optional<size_t> wellKnownIndex(std::string_view text);

}  // namespace mtf::mtfbin
