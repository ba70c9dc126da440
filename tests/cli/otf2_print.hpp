// Reading OTF2's own tool, otf2-print, in tests: its event lines and their counts by record
// name, so that an archive is judged by OTF2 itself and not only by mtf's reader.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mtf::test {

// "MpiIsendComplete" -> "MPI_ISEND_COMPLETE", as otf2-print names records.
std::string otf2PrintName(const std::string& kind);
// Event lines of `otf2-print ANCHOR` (header and attribute continuation lines left out);
// a failing otf2-print is a test failure.
std::vector<std::string> otf2PrintEventLines(const std::string& anchor);
// Counts of event lines by record name (the first word of a line).
std::map<std::string, uint64_t> countByRecord(const std::vector<std::string>& lines);

}  // namespace mtf::test
