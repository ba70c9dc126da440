// NLR loop nests in MTF XML. The writer sink runs Nested Loop Recognition beside the
// compactor and attaches each location's loop nest as the annotation "nlr.loops" (the
// exact bytes of nlr/loop_blob.hpp); the XML writer shows it as readable <Loops> too.
#pragma once

#include <string_view>

#include "compaction/compact_model.hpp"
#include "converters/mtf/xml/xml_io.hpp"
#include "nlr/nlr_sink.hpp"

namespace mtf::xml {

inline constexpr std::string_view kLoopAnnotation = "nlr.loops";
// Loop nests deeper than this get no readable view (the annotation still has them), so
// that every file the writer makes stays within the reader's depth bound.
inline constexpr unsigned kMaxViewedLoopDepth = 150;

// Attaches the loop nests found by `loops` to the locations of `model`.
void attachLoopAnnotations(const nlr::NlrSink& loops, compaction::CompactModel& model);

// Writes <Loops> for `location` if it carries a loop annotation that decodes; nothing
// otherwise.
void writeLoopsView(XmlWriter& w, const compaction::LocationModel& location,
                    const Definitions& defs);

}  // namespace mtf::xml
