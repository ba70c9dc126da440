// Writer of MTF XML (see schema/mtf.xsd for the document and the choices behind it).
#include <map>
#include <stdexcept>
#include <string>

#include "compaction/event_split.hpp"
#include "converters/mtf/xml/mtf_xml_loops.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "converters/mtf/xml/xml_io.hpp"
#include "converters/mtf/xml/xml_text.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::xml {

using compaction::CompactModel;
using compaction::EdgeType;
using compaction::Node;
using compaction::NodeKind;
using compaction::Signature;

namespace {

std::string nodeId(uint64_t index) {
  return "n" + std::to_string(index);
}

// Element text that survives a parser unchanged: plain when possible, else base64.
void writeEncodedText(XmlWriter& w, std::string_view text) {
  if (isPlainXmlText(text)) {
    w.text(text);
  } else {
    w.attribute("encoding", "base64");
    w.text(base64Encode(text));
  }
}

void writeBlob(XmlWriter& w, const std::vector<uint8_t>& bytes) {
  w.text(base64Encode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())));
}

// The name of the field at `index` of an event or definition of layout `schema`
// holding `count` fields (fields past the fixed ones belong to the repeated group).
std::string fieldName(const KindSchema& schema, size_t index) {
  if (index < schema.fixedCount) return schema.fields[index].name;
  if (schema.hasGroup())
    return schema.fields[schema.fixedCount + (index - schema.fixedCount) % schema.groupSize].name;
  return "f" + std::to_string(index);
}

// Names of the structural fields a signature keeps (compaction/event_split.hpp decides
// which fields are structural), in order; "f<i>" where the layout gives no name.
std::vector<std::string> structuralFieldNames(const Signature& sig) {
  const KindSchema& schema = schemaOf(sig.kind);
  const std::vector<bool>& structural = compaction::layoutOf(sig.kind).structural;
  std::vector<std::string> names;
  const size_t limit = schema.fixedCount + schema.groupSize * sig.fields.size();
  for (size_t i = 0; i < limit && names.size() < sig.fields.size(); ++i) {
    const size_t schemaIndex =
        i < schema.fixedCount ? i : schema.fixedCount + (i - schema.fixedCount) % schema.groupSize;
    if (schemaIndex < structural.size() && structural[schemaIndex])
      names.push_back(schema.fields[schemaIndex].name);
  }
  while (names.size() < sig.fields.size()) names.push_back("f" + std::to_string(names.size()));
  return names;
}

void writeField(XmlWriter& w, const std::string& name, uint64_t value) {
  w.startElement("Field");
  w.attribute("name", name);
  w.attribute("value", value);
  w.endElement();
}

void writeTraceHeader(XmlWriter& w, const Definitions& defs,
                      const std::map<std::string, std::string>& fallback) {
  w.startElement("Clock");
  w.attribute("resolution", defs.clock.resolution);
  w.attribute("globalOffset", defs.clock.globalOffset);
  w.attribute("traceLength", defs.clock.traceLength);
  if (defs.clock.realtime != kUndefinedId) w.attribute("realtime", defs.clock.realtime);
  w.endElement();
  for (const auto* properties : {&defs.info.properties, &fallback}) {
    for (const auto& [key, value] : *properties) {
      w.startElement("Property");
      w.attribute("key", isPlainXmlText(key) ? key : base64Encode(key));
      writeEncodedText(w, value);
      w.endElement();
    }
  }
}

void writeDefinitions(XmlWriter& w, const Definitions& defs) {
  w.startElement("Definitions");
  for (const DefRecord& r : defs.records()) {  // model order: ids are kept, order too
    if (r.kind == DefKind::String) {
      w.startElement("String");
      w.attribute("id", r.fields.empty() ? 0 : r.fields[0]);
      writeEncodedText(w, r.text);
    } else {
      w.startElement("Definition");
      w.attribute("kind", nameOf(r.kind));
      const KindSchema& schema = schemaOf(r.kind);
      for (size_t i = 0; i < r.fields.size(); ++i) writeField(w, fieldName(schema, i), r.fields[i]);
    }
    w.endElement();
  }
  w.endElement();
}

// The processors (machine nodes) holding the model's locations: location -> "p<N>".
std::map<LocationId, std::string> writeProcessors(XmlWriter& w, const CompactModel& model) {
  const Definitions& defs = model.definitions;
  std::map<uint64_t, std::string> processorOfNode;
  std::map<LocationId, std::string> processorOfLocation;
  for (const compaction::LocationModel& location : model.locations) {
    const DefRecord* loc = defs.find(DefKind::Location, location.location);
    const DefRecord* group = loc ? defs.find(DefKind::LocationGroup, loc->field("group")) : nullptr;
    const uint64_t nodeRef = group ? group->field("parent") : kUndefinedId;
    const DefRecord* node = defs.find(DefKind::SystemTreeNode, nodeRef);
    if (!node) continue;
    auto [it, inserted] =
        processorOfNode.emplace(nodeRef, "p" + std::to_string(processorOfNode.size()));
    if (inserted) {
      w.startElement("Processor");
      w.attribute("id", it->second);
      w.attribute("name", defs.string(node->field("name")));
      w.endElement();
    }
    processorOfLocation[location.location] = it->second;
  }
  return processorOfLocation;
}

// A readable label for an Enter/Leave signature: its region's name.
std::string_view signatureLabel(const Signature& sig, const Definitions& defs) {
  if ((sig.kind == EventKind::Enter || sig.kind == EventKind::Leave) && !sig.fields.empty())
    return defs.regionName(static_cast<Ref>(sig.fields[0]));
  return {};
}

void writeSignatures(XmlWriter& w, const CompactModel& model) {
  w.startElement("Signatures");
  for (size_t id = 0; id < model.signatures.size(); ++id) {
    const Signature& sig = model.signatures[id];
    w.startElement("Signature");
    w.attribute("id", "s" + std::to_string(id));
    w.attribute("kind", nameOf(sig.kind));
    const std::string_view label = signatureLabel(sig, model.definitions);
    if (!label.empty() && isPlainXmlText(label)) w.attribute("label", label);
    const std::vector<std::string> names = structuralFieldNames(sig);
    for (size_t i = 0; i < sig.fields.size(); ++i) writeField(w, names[i], sig.fields[i]);
    for (const compaction::SignatureAttribute& a : sig.attributes) {
      w.startElement("Attribute");
      w.attribute("attribute", uint64_t{a.attribute});
      w.attribute("type", uint64_t{a.type});
      w.endElement();
    }
    w.endElement();
  }
  w.endElement();
}

const char* elementOf(NodeKind kind) {
  switch (kind) {
    case NodeKind::Call:
      return "RoutineCall";
    case NodeKind::PointToPoint:
      return "PointToPoint";
    case NodeKind::Collective:
      return "Collective";
    case NodeKind::Sequence:
      return "Sequence";
    case NodeKind::Other:
      break;
  }
  return "Event";
}

const char* edgeTypeName(EdgeType type) {
  switch (type) {
    case EdgeType::Sequence:
      return "sequence";
    case EdgeType::Recursive:
      return "recursive";
    case EdgeType::Regular:
      break;
  }
  return "regular";
}

void writeNode(XmlWriter& w, const CompactModel& model, size_t id) {
  const Node& node = model.nodes[id];
  w.startElement(elementOf(node.kind));
  w.attribute("id", nodeId(id));
  w.attribute("events", node.eventCount);
  if (node.kind == NodeKind::Call) {
    w.attribute("enter", "s" + std::to_string(node.sig));
    if (node.leaveSig != compaction::kNoSig)
      w.attribute("leave", "s" + std::to_string(node.leaveSig));
    const std::string_view routine = signatureLabel(model.signature(node.sig), model.definitions);
    if (!routine.empty() && isPlainXmlText(routine)) w.attribute("routine", routine);
  } else if (node.kind != NodeKind::Sequence) {
    w.attribute("signature", "s" + std::to_string(node.sig));
  }
  for (const compaction::Edge& edge : node.edges) {
    w.startElement("Edge");
    w.attribute("to", nodeId(edge.child));
    if (edge.type != EdgeType::Regular) w.attribute("type", edgeTypeName(edge.type));
    if (edge.repetitions != 1) w.attribute("repetitions", edge.repetitions);
    w.endElement();
  }
  w.endElement();
}

void writeAnnotations(XmlWriter& w, const std::vector<compaction::Annotation>& annotations) {
  for (const compaction::Annotation& a : annotations) {
    w.startElement("Annotation");
    w.attribute("name", a.name);
    writeBlob(w, a.data);
    w.endElement();
  }
}

void writeProcess(XmlWriter& w, const CompactModel& model, const compaction::LocationModel& loc,
                  const std::map<LocationId, std::string>& processors, const RankMap& ranks,
                  bool structureOnly) {
  w.startElement("Process");
  w.attribute("location", loc.location);
  w.attribute("root", nodeId(loc.root));
  w.attribute("events", loc.eventCount);
  if (const DefRecord* def = model.definitions.find(DefKind::Location, loc.location)) {
    const std::string_view name = model.definitions.string(def->field("name"));
    if (isPlainXmlText(name)) w.attribute("name", name);
  }
  if (const int64_t rank = ranks.worldRank(loc.location); rank >= 0)
    w.attribute("rank", static_cast<uint64_t>(rank));
  if (auto it = processors.find(loc.location); it != processors.end())
    w.attribute("processor", it->second);
  for (const compaction::ColumnChunk& chunk :
       structureOnly ? decltype(loc.columns){} : loc.columns) {
    if (needsColumnDictionary(chunk.encoded))  // compacted for XML: never (mtf_xml_format)
      throw std::logic_error("MTF XML: a value chunk compressed with a column dictionary");
    w.startElement("Values");
    w.attribute("encoding", valuesEncodingOf(chunk.encoded));
    w.attribute("firstEvent", chunk.firstEvent);
    w.attribute("events", chunk.eventCount);
    w.attribute("firstTime", chunk.firstTime);
    w.attribute("lastTime", chunk.lastTime);
    writeBlob(w, chunk.encoded);
    w.endElement();
  }
  writeLoopsView(w, loc, model.definitions);
  writeAnnotations(w, loc.annotations);
  w.endElement();
}

// An analysis's readable element, nested as given (a value that is not plain text is
// written in base64 rather than breaking the document).
void writeView(XmlWriter& w, const ViewElement& view) {
  w.startElement(view.element.c_str());
  for (const auto& [name, value] : view.attributes)
    w.attribute(name.c_str(), isPlainXmlText(value) ? value : base64Encode(value));
  for (const ViewElement& child : view.children) writeView(w, child);
  w.endElement();
}

}  // namespace

void writeModelXml(const CompactModel& model, const std::filesystem::path& path, bool structureOnly,
                   const std::vector<ViewElement>& views) {
  XmlWriter w(path);
  w.startDocument();
  w.startElement(kMtfXmlRoot);
  w.namespaceDeclaration(kMtfXmlNamespace);
  w.attribute("formatVersion", kMtfXmlVersion);
  w.startElement("Trace");
  const TraceInfo& info = model.definitions.info;
  std::map<std::string, std::string> fallback;  // trace facts that are not plain text
  auto traceAttribute = [&](const char* name, const std::string& value) {
    if (isPlainXmlText(value))
      w.attribute(name, value);
    else
      fallback[std::string(kTraceFactProperty) + name] = value;
  };
  traceAttribute("format", info.format);
  if (!info.creator.empty()) traceAttribute("creator", info.creator);
  if (!info.version.empty()) traceAttribute("version", info.version);
  if (structureOnly) w.attribute("structureOnly", "true");
  writeTraceHeader(w, model.definitions, fallback);
  writeDefinitions(w, model.definitions);
  const auto processors = writeProcessors(w, model);
  writeSignatures(w, model);
  w.startElement("Nodes");
  for (size_t id = 0; id < model.nodes.size(); ++id) writeNode(w, model, id);
  w.endElement();
  const RankMap ranks(model.definitions);
  for (const compaction::LocationModel& loc : model.locations)
    writeProcess(w, model, loc, processors, ranks, structureOnly);
  for (const ViewElement& view : views) writeView(w, view);
  writeAnnotations(w, model.annotations);
  w.endElement();  // Trace
  w.endElement();  // Scenario
  w.finish();
}

}  // namespace mtf::xml
