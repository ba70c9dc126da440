// The OTF2 writer's last step: the archive it has just written must open with OTF2's own
// reader. OTF2_Archive_Close reports a failure to write the anchor file only through the
// library's error handler and still returns OTF2_SUCCESS, so without this check a
// conversion could report success for an archive no OTF2 tool can open.
#pragma once

#include <cstdint>
#include <filesystem>

namespace mtf::otf2 {

// Opens `anchor` with OTF2_Reader_Open and reads its global definitions (no callbacks: the
// library only parses them). Throws IoError naming `anchor` and the library's message if
// OTF2 cannot, or if it finds other than `definitions` global definitions or the anchor
// declares other than that many.
void checkArchiveReadsBack(const std::filesystem::path& anchor, uint64_t definitions);

}  // namespace mtf::otf2
