// convert()'s cut (issue 31, part A): ConvertOptions' begin/end/shiftTimes and
// construct/iterations made into a filter::CutPlan, as `mtf convert` makes it.
#pragma once

#include <string>

#include "filter/cut_request.hpp"
#include "mtf/trace.hpp"

namespace mtf::api {

filter::CutRequest cutRequestOf(const ConvertOptions& options);

// The plan of `request` on `input` (opened as `source`); no rule if nothing is asked.
filter::CutPlan planConvertCut(const filter::CutRequest& request, const std::string& input,
                               TraceSource& source, const ReadOptions& read);

// The cut of `plan` into `out`, null if none; on an .mtf `source` a window then reads
// only the chunks it needs (null `source`: it reads everything, as a selection needs).
std::unique_ptr<filter::CutSink> cutInto(filter::CutPlan& plan, TraceSource* source,
                                         TraceSink& out);

}  // namespace mtf::api
