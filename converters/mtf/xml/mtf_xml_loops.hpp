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
// A loop nest with more stored elements than this (symbols, body elements, top-level
// elements) is no readable summary: NLR found no loop covering the run. It gets no view
// (each element costs ~25 bytes of XML against ~1 byte in the annotation).
inline constexpr uint64_t kMaxViewedLoopElements = 1000;

// Attaches the loop nests found by `loops` to the locations of `model`.
void attachLoopAnnotations(const nlr::NlrSink& loops, compaction::CompactModel& model);

// Writes <Loops> for `location` if it carries a loop annotation that decodes; nothing
// otherwise. Bodies are listed once each, so the view grows like the annotation.
void writeLoopsView(XmlWriter& w, const compaction::LocationModel& location,
                    const Definitions& defs);

}  // namespace mtf::xml
