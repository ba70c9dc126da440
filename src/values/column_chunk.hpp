// A chunk of value columns, as the archive stores it and the value coders produce it.
#pragma once

#include <cstdint>
#include <vector>

#include "model/types.hpp"

namespace mtf::values {

// One independently decodable piece of a location's value columns: the values of the
// events [firstEvent, firstEvent + eventCount) of that location, in expansion order.
// `encoded` is opaque to everyone but values/columns.hpp: the deflated chunk payload
// (byte planes of the time residuals, varint-coded value residuals; columns.hpp). Its
// meaning, decoded: for each event, its time, then every non-structural field in schema
// order, then every attribute value.
struct ColumnChunk {
  uint64_t firstEvent = 0;
  uint64_t eventCount = 0;
  Tick firstTime = 0;  // time of the chunk's first event
  Tick lastTime = 0;   // time of the chunk's last event
  Tick minTime = 0;    // smallest and largest time in the chunk (times may go backwards)
  Tick maxTime = 0;
  std::vector<uint8_t> encoded;
};

}  // namespace mtf::values
