// Texts an archive of version 4 or 5 names by number instead of spelling them (docs/mtf-format.md
// section 5.3, appendix C): the names of MPI's functions, which tools that trace MPI
// define as regions whether the program calls them or not (Score-P: some 230 of them),
// and texts that trace files repeat verbatim (Paraver's default states and colours; version
// 5: TAU's fixed edf lines and the attributes mtf's readers define).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "converters/mtf/binary/archive_layout.hpp"

namespace mtf::mtfbin {

// The table of archives of `version` (4: 408 strings; 5 adds what mtf's readers define).
std::span<const std::string_view> wellKnownStrings(uint32_t version = kVersion);
// The strings version 5 appends to version 4's table.
std::span<const std::string_view> wellKnownStringsOfVersion5();
// The number of `text` in the table of the current version, if it is there.
std::optional<size_t> wellKnownIndex(std::string_view text);

}  // namespace mtf::mtfbin
