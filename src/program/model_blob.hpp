// A stable binary serialization of the program-wide model, stored in MTF archives (binary
// and XML, base64 there) as the trace-wide annotation "program.model" so that an analyzer
// reads the model without rebuilding it. Its own version byte: an archive reader that
// does not know the annotation skips it, and this reader refuses a version it does not know.
//
// Layout, version 2 (unsigned LEB128 varints unless said otherwise):
//   magic "MTFPRG" then the version byte 0x02
//   eventsIn, nProcesses, per process: location, worldRank (zigzag), name (length, bytes)
//   the top-level system
//   system: nConstructs, then per construct:
//     type (0 loop, 1 event, 2 collective), nProcs then the process indices as gaps
//     (first index, then each minus the previous minus 1), note (length, bytes),
//     a loop: count, then its body (a system); an event or collective: kind, flags
//     (bit 0: partner relative), region+1, comm+1, tag, partner (zigzag), size, size2, ident,
//     then its rank form (rank_form.hpp): kind (0 offset, 1 xor, 2 torus), and for a
//     torus the number of dimensions (1 to 3) and each extent (>= 1)
// Version 1 is version 2 without the rank forms (every partner an offset); the reader
// reads both.
// The reader checks every count against the bytes left, the nesting depth (at most
// 4096), process indices, and that nothing follows.
#pragma once

#include <string>
#include <string_view>

#include "program/program_model.hpp"

namespace mtf::program {

inline constexpr char kModelAnnotationName[] = "program.model";

std::string encodeProgramModel(const ProgramModel& model);
// Throws InputError(source, "byte N", ...) on a malformed blob.
ProgramModel decodeProgramModel(std::string_view blob, const std::string& source);

}  // namespace mtf::program
