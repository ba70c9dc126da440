#include "converters/mtf/xml/mtf_xml_loops.hpp"

#include "converters/mtf/xml/xml_text.hpp"
#include "model/mpi_ranks.hpp"
#include "nlr/loop_blob.hpp"
#include "nlr/loop_print.hpp"
#include "util/error.hpp"

namespace mtf::xml {

namespace {

// Writes <element [index=..]> and its events and loops, leaving the element open.
void writeSequence(XmlWriter& w, const char* element, const std::vector<nlr::ElementKey>& keys,
                   const uint64_t* index = nullptr) {
  w.startElement(element);
  if (index) w.attribute("index", *index);
  for (nlr::ElementKey k : keys) {
    if (nlr::isLoop(k)) {
      w.startElement("Loop");
      w.attribute("body", uint64_t{nlr::bodyOf(k)});
      w.attribute("iterations", nlr::countOf(k));
    } else {
      w.startElement("Event");
      w.attribute("symbol", uint64_t{nlr::symbolOf(k)});
    }
    w.endElement();
  }
}

void writeView(XmlWriter& w, const nlr::LoopModel& model, const compaction::LocationModel& location,
               const Definitions& defs) {
  const nlr::EventNamer namer(defs, {});
  const int64_t ownRank = RankMap(defs).worldRank(location.location);
  w.startElement("Loops");
  w.attribute("events", model.eventsIn);
  for (size_t symbol = 0; symbol < model.signatures.size(); ++symbol) {
    const nlr::Signature& signature = model.signatures[symbol];
    w.startElement("Symbol");
    w.attribute("index", uint64_t{symbol});
    w.attribute("kind", nameOf(signature.kind));
    const std::string label = namer.describe(signature, ownRank, location.location);
    if (isPlainXmlText(label)) w.attribute("label", label);
    w.endElement();
  }
  for (size_t body = 0; body < model.bodies.size(); ++body) {
    const uint64_t index = body;
    writeSequence(w, "Body", model.bodies[body], &index);
    w.endElement();
  }
  writeSequence(w, "Top", model.top);
  w.endElement();
  w.endElement();  // Loops
}

}  // namespace

void attachLoopAnnotations(const nlr::NlrSink& loops, compaction::CompactModel& model) {
  for (const nlr::LocationLoops& result : loops.results()) {
    compaction::LocationModel* location = model.findLocation(result.location);
    if (!location) continue;
    const std::string blob = nlr::encodeLoopModel(result.model);
    location->annotations.push_back(
        {std::string(kLoopAnnotation), std::vector<uint8_t>(blob.begin(), blob.end())});
  }
}

void writeLoopsView(XmlWriter& w, const compaction::LocationModel& location,
                    const Definitions& defs) {
  for (const compaction::Annotation& a : location.annotations) {
    if (a.name != kLoopAnnotation) continue;
    nlr::LoopModel model;
    try {
      model = nlr::decodeLoopModel(a.bytes(), "annotation " + std::string(kLoopAnnotation));
    } catch (const InputError&) {
      return;  // not ours to judge: the annotation is kept as is, only the view is left out
    }
    uint64_t elements = model.signatures.size() + model.top.size();
    for (const auto& body : model.bodies) elements += body.size();
    if (elements <= kMaxViewedLoopElements) writeView(w, model, location, defs);
    return;
  }
}

}  // namespace mtf::xml
