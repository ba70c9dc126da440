// Finding the anchor file of an OTF2 archive, by content.
#pragma once

#include <filesystem>

namespace mtf::otf2 {

// True if `file` is a regular file that starts like an OTF2 anchor file.
bool isAnchorFile(const std::filesystem::path& file);
// The anchor of `input`: `input` itself if it is an anchor, or the one anchor directly
// inside the directory `input`. Throws InputError naming the path otherwise (no anchor,
// several anchors, missing path).
std::filesystem::path findAnchor(const std::filesystem::path& input);
// Like findAnchor but returns false instead of throwing when `input` is neither an anchor
// nor a directory holding one; still throws for a directory holding several anchors.
bool tryFindAnchor(const std::filesystem::path& input, std::filesystem::path& anchor);

}  // namespace mtf::otf2
