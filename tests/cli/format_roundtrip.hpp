// Converts a trace with `mtf convert` into one format and checks, without mtf's readers
// where the format allows (message_matrix.hpp), that the output holds the same messages
// between the same world ranks as the OTF2 input.
#pragma once

#include <string>

namespace mtf::test {

// Converts `input` (an OTF2 anchor) into `format` (otf2, paraver, tau, mtf, mtf-xml) under
// `dir` and expects the output's (sender, receiver) counts to equal otf2-print's of the
// input; the OTF2 output and MTF archives must also dump (`mtf dump`) like the input,
// and the archives converted back to OTF2 keep the counts.
void expectSameMatrices(const std::string& input, const std::string& format,
                        const std::string& dir);

}  // namespace mtf::test
