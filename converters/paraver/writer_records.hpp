// What the Paraver writer's files share about record lines: the ranks that order records
// of equal time, the sorter's streams, and how a line starts and takes a field.
#pragma once

#include <cstddef>
#include <cstdint>

#include "util/text_buffer.hpp"

namespace mtf::paraver::records {

inline constexpr uint8_t kCommunicationRank = 0, kEventRank = 1, kStateRank = 2;

// The sorter's stream of a location's records: its communications, and its events and
// states (a state's record is expected at its begin: RecordSorter::expectLate). Each comes
// mostly in order.
inline size_t streamOf(size_t position, uint8_t rank) {
  return position * 2 + (rank == kCommunicationRank ? 0 : 1);
}

// Empties `line` and starts it with the record type ("2:").
inline void startRecord(TextBuffer& line, int type) {
  line.clear();
  line.push(static_cast<char>('0' + type));
  line.push(':');
}

inline void appendField(TextBuffer& out, uint64_t v) {
  out.appendDecimal(v, ':');
}

}  // namespace mtf::paraver::records
