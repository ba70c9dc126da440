#include "converters/otf2/otf2_anchor.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <vector>

#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::otf2 {

namespace {

// An anchor file is an OTF2 buffer: a header byte 0x03, the endianness mark 'B' or 'L',
// then the NUL-terminated string "OTF2". (A .def/.evt buffer has no such string there.)
constexpr std::array<char, 5> kAnchorText = {'O', 'T', 'F', '2', '\0'};

std::vector<fs::path> anchorsIn(const fs::path& dir) {
  std::vector<fs::path> anchors;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (isAnchorFile(it->path())) anchors.push_back(it->path());
  std::sort(anchors.begin(), anchors.end());
  return anchors;
}

}  // namespace

bool isAnchorFile(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  std::ifstream in(file, std::ios::binary);
  std::array<char, 7> head{};
  if (!in.read(head.data(), head.size())) return false;
  return head[0] == '\x03' && (head[1] == 'B' || head[1] == 'L') &&
         std::equal(kAnchorText.begin(), kAnchorText.end(), head.begin() + 2);
}

bool tryFindAnchor(const fs::path& input, fs::path& anchor) {
  if (isAnchorFile(input)) {
    anchor = input;
    return true;
  }
  std::error_code ec;
  if (!fs::is_directory(input, ec)) return false;
  if (anchorsIn(input).empty()) return false;
  anchor = findAnchor(input);  // throws, naming them, if there are several
  return true;
}

fs::path findAnchor(const fs::path& input) {
  std::error_code ec;
  if (!fs::exists(input, ec)) throw InputError(input.string(), "", "no such file or directory");
  if (!fs::is_directory(input, ec)) {
    if (isAnchorFile(input)) return input;
    throw InputError(input.string(), "byte 0", "not an OTF2 anchor file");
  }
  const std::vector<fs::path> anchors = anchorsIn(input);
  if (anchors.empty()) throw InputError(input.string(), "", "directory holds no OTF2 anchor file");
  if (anchors.size() > 1) {
    std::string names;
    for (const fs::path& a : anchors) names += (names.empty() ? "" : ", ") + a.filename().string();
    throw InputError(input.string(), "", "directory holds several OTF2 anchors: " + names);
  }
  return anchors.front();
}

}  // namespace mtf::otf2
