// Printing the program-wide model: the `mtf loops` text with the processes of each
// construct (`for i0 = 1 to 249 [0-15]`, `r send r+1 tag1 40B [0-2,4-6]`: `r` is each
// rank of the range, partners relative to it), optionally with positions (`2.1` = the
// second construct in the body of the third top-level one, counted from 0), and JSON.
#pragma once

#include <ostream>
#include <string>

#include "nlr/loop_print.hpp"
#include "program/program_model.hpp"

namespace mtf::program {

// One construct's line without its range: "for i0 = 1 to 249" or the event.
std::string constructText(const Construct& c, const ProgramModel& model,
                          const nlr::EventNamer& namer, unsigned depth);
void printModelText(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer,
                    bool positions);
// {"processes":N,"events_in":E,"constructs":[{"type","ranks","position",("count","body") |
//  ("event","kind",...)}]}
void printModelJson(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer);

}  // namespace mtf::program
