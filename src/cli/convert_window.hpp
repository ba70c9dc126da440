// `mtf convert`'s cuts (issue 31, part A): --begin/--end/--shift-times and
// --construct/--iterations, applied while the conversion streams (filter/).
#pragma once

#include <memory>
#include <string>

#include "filter/cut_request.hpp"
#include "filter/time_window.hpp"

namespace CLI {
class App;
}

namespace mtf::cli {

void addCutOptions(CLI::App& cmd, filter::CutRequest& request);

struct ConvertCut {
  filter::CutPlan plan;                   // no rule: no cut asked
  TraceSource* source = nullptr;          // the input (an .mtf reads only the window)
  std::unique_ptr<filter::CutSink> sink;  // made by into()
  // The sink the source reads into: the cut passing on to `out`, or `out` itself.
  TraceSink& into(TraceSink& out);
};

// The cut of `input` (opened as `source`: a window restricts what an .mtf reads),
// checked before anything is written. For iterations, reads the program model and the input once.
ConvertCut prepareConvertCut(const filter::CutRequest& request, const std::string& input,
                             TraceSource& source, bool lenient);

// "mtf: OUT: cut off: ..." on stderr: what the cut could not keep whole.
void reportCut(const ConvertCut& cut, const std::string& output);

}  // namespace mtf::cli
