// convert()'s cut (issue 31, part A): ConvertOptions' begin/end/shiftTimes and
// construct/iterations made into a filter::CutPlan, as `mtf convert` makes it.
#pragma once

#include <string>

#include "filter/cut_request.hpp"
#include "mtf/trace.hpp"

namespace mtf::api {

filter::CutRequest cutRequestOf(const ConvertOptions& options);

// The plan of `request` on `input` (opened as `source`; a window restricts what it
// reads); no rule if nothing is asked.
filter::CutPlan planConvertCut(const filter::CutRequest& request, const std::string& input,
                               TraceSource& source, const ReadOptions& read);

}  // namespace mtf::api
