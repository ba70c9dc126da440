// Reader of MTF XML: a pull parser over libxml2's xmlTextReader that rebuilds the
// compacted model element by element, checking every reference as it goes.
#include <functional>
#include <string>

#include "compaction/event_split.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "converters/mtf/xml/xml_io.hpp"
#include "converters/mtf/xml/xml_text.hpp"
#include "util/error.hpp"

namespace mtf::xml {

using compaction::CompactModel;
using compaction::Edge;
using compaction::EdgeType;
using compaction::Node;
using compaction::NodeKind;
using compaction::Signature;

namespace {

class ModelParser {
 public:
  explicit ModelParser(const std::filesystem::path& path) : r_(path, kMaxDepth) {}
  XmlModel parse();

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(r_.path().string(), r_.place(), what);
  }
  void expectStart(const char* name);
  // Calls `child(name)` for every child element of the current element; `child` must
  // consume the child entirely (use skip() for children it ignores).
  void forEachChild(const std::function<void(std::string_view)>& child);
  void skip();
  std::string required(const char* attribute) const;
  uint64_t unsignedAttribute(const char* attribute) const;
  uint64_t unsignedAttribute(const char* attribute, uint64_t fallback) const;
  uint64_t idAttribute(const char* attribute, char prefix) const;
  std::string encodedText();
  std::vector<uint8_t> blobText();

  void checkModel();
  void readTrace();
  void readClock();
  void readDefinitions();
  void readDefinition();
  uint64_t readFieldValue();
  void readSignature();
  void readNode(std::string_view element);
  Edge readEdge(uint64_t parent);
  void readProcess();
  compaction::Annotation readAnnotation();

  XmlReader r_;
  XmlModel result_;
  CompactModel& model_ = result_.model;
};

void ModelParser::expectStart(const char* name) {
  if (!r_.next() || r_.type() != NodeType::StartElement || r_.name() != name)
    fail(std::string("expected element <") + name + ">");
  if (r_.namespaceUri() != kMtfXmlNamespace)
    fail(std::string("element <") + name + "> is not in the MTF namespace " + kMtfXmlNamespace);
}

void ModelParser::forEachChild(const std::function<void(std::string_view)>& child) {
  if (r_.isEmptyElement()) return;
  const int depth = r_.depth();
  while (r_.next()) {
    if (r_.type() == NodeType::EndElement && r_.depth() == depth) return;
    if (r_.type() == NodeType::Text) fail("unexpected text");
    if (r_.type() != NodeType::StartElement) continue;
    if (r_.namespaceUri() != kMtfXmlNamespace)
      fail("element <" + std::string(r_.name()) + "> is not in the MTF namespace");
    child(r_.name());
  }
  fail("unexpected end of document");
}

void ModelParser::skip() {
  forEachChild([this](std::string_view) { skip(); });
}

std::string ModelParser::required(const char* attribute) const {
  std::optional<std::string> value = r_.attribute(attribute);
  if (!value) fail("<" + std::string(r_.name()) + "> needs the attribute " + attribute);
  return *value;
}

uint64_t ModelParser::unsignedAttribute(const char* attribute) const {
  const std::string text = required(attribute);
  const std::optional<uint64_t> value = parseUnsigned(text);
  if (!value)
    fail(std::string("attribute ") + attribute + "=\"" + text + "\" is not an unsigned integer");
  return *value;
}

uint64_t ModelParser::unsignedAttribute(const char* attribute, uint64_t fallback) const {
  return r_.attribute(attribute) ? unsignedAttribute(attribute) : fallback;
}

// "n12" -> 12 for an identifier with the given prefix.
uint64_t ModelParser::idAttribute(const char* attribute, char prefix) const {
  const std::string text = required(attribute);
  const std::optional<uint64_t> value =
      text.size() > 1 && text[0] == prefix ? parseUnsigned(text.substr(1)) : std::nullopt;
  if (!value || *value > 0xFFFFFFFEu)
    fail(std::string("attribute ") + attribute + "=\"" + text + "\" is not an identifier " +
         prefix + "<N>");
  return *value;
}

std::string ModelParser::encodedText() {
  const std::optional<std::string> encoding = r_.attribute("encoding");
  std::string text = r_.elementText();
  if (!encoding) return text;
  if (*encoding != "base64") fail("unknown text encoding \"" + *encoding + "\"");
  std::optional<std::string> bytes = base64Decode(text);
  if (!bytes) fail("text is not valid base64");
  return std::move(*bytes);
}

std::vector<uint8_t> ModelParser::blobText() {
  const std::optional<std::string> bytes = base64Decode(r_.elementText());
  if (!bytes) fail("content is not valid base64");
  return std::vector<uint8_t>(bytes->begin(), bytes->end());
}

XmlModel ModelParser::parse() {
  expectStart(kMtfXmlRoot);
  const uint64_t version = unsignedAttribute("formatVersion");
  if (version != kMtfXmlVersion)
    fail("MTF XML version " + std::to_string(version) + " is not supported (this reader reads " +
         std::to_string(kMtfXmlVersion) + ")");
  bool sawTrace = false;
  forEachChild([&](std::string_view name) {
    if (name != "Trace" || sawTrace) fail("unexpected element <" + std::string(name) + ">");
    sawTrace = true;
    readTrace();
  });
  if (!sawTrace) fail("the document holds no <Trace>");
  checkModel();
  return std::move(result_);
}

// CompactModel::check also wants columns covering every event, which a structure-only
// file leaves out on purpose: for it the check runs with one placeholder chunk per
// location, removed again afterwards.
void ModelParser::checkModel() {
  if (result_.structureOnly) {
    for (compaction::LocationModel& l : model_.locations) {
      if (!l.columns.empty()) fail("a structure-only file holds <Values>");
      if (l.eventCount == 0) continue;
      compaction::ColumnChunk whole;  // one chunk of every event, without values
      whole.eventCount = l.eventCount;
      l.columns.push_back(std::move(whole));
    }
  }
  const std::vector<std::string> problems = model_.check();
  if (result_.structureOnly)
    for (compaction::LocationModel& l : model_.locations) l.columns.clear();
  if (!problems.empty())
    throw InputError(r_.path().string(), "", "inconsistent model: " + problems[0]);
}

void ModelParser::readTrace() {
  TraceInfo& info = model_.definitions.info;
  info.format = r_.attribute("format").value_or("");
  info.creator = r_.attribute("creator").value_or("");
  info.version = r_.attribute("version").value_or("");
  const std::string structureOnly = r_.attribute("structureOnly").value_or("false");
  result_.structureOnly = structureOnly == "true" || structureOnly == "1";
  forEachChild([&](std::string_view name) {
    if (name == "Clock")
      readClock();
    else if (name == "Property") {
      const std::string key = required("key");
      info.properties[key] = encodedText();
    } else if (name == "Definitions")
      readDefinitions();
    else if (name == "Signatures") {
      forEachChild([&](std::string_view child) {
        if (child != "Signature") fail("unexpected element <" + std::string(child) + ">");
        readSignature();
      });
    } else if (name == "Nodes")
      forEachChild([&](std::string_view child) { readNode(child); });
    else if (name == "Process")
      readProcess();
    else if (name == "Annotation")
      model_.annotations.push_back(readAnnotation());
    else if (name == "Processor" || name == "Message" || name == "TracePattern" ||
             name == "PatternOccurrence" || name == "Structure")
      skip();  // derived views and analysis results: nothing the model is rebuilt from
    else
      fail("unexpected element <" + std::string(name) + "> in <Trace>");
  });
  for (auto [name, field] : {std::pair{"format", &info.format}, std::pair{"creator", &info.creator},
                             std::pair{"version", &info.version}}) {
    auto it = info.properties.find(std::string(kTraceFactProperty) + name);
    if (it == info.properties.end()) continue;
    *field = std::move(it->second);
    info.properties.erase(it);
  }
}

void ModelParser::readClock() {
  ClockProperties& clock = model_.definitions.clock;
  clock.resolution = unsignedAttribute("resolution");
  if (clock.resolution == 0) fail("the clock resolution must be positive");
  clock.globalOffset = unsignedAttribute("globalOffset");
  clock.traceLength = unsignedAttribute("traceLength");
  clock.realtime = unsignedAttribute("realtime", kUndefinedId);
  skip();
}

void ModelParser::readDefinitions() {
  forEachChild([&](std::string_view name) {
    if (name == "String") {
      DefRecord record;
      record.kind = DefKind::String;
      record.fields.push_back(unsignedAttribute("id"));
      record.text = encodedText();
      model_.definitions.add(std::move(record));
    } else if (name == "Definition") {
      readDefinition();
    } else {
      fail("unexpected element <" + std::string(name) + "> in <Definitions>");
    }
  });
}

uint64_t ModelParser::readFieldValue() {
  const uint64_t value = unsignedAttribute("value");
  required("name");
  skip();
  return value;
}

void ModelParser::readDefinition() {
  DefRecord record;
  const std::string kind = required("kind");
  if (!defKindFromName(kind, record.kind) || record.kind == DefKind::String)
    fail("unknown definition kind \"" + kind + "\"");
  forEachChild([&](std::string_view name) {
    if (name != "Field") fail("unexpected element <" + std::string(name) + "> in <Definition>");
    record.fields.push_back(readFieldValue());
  });
  const KindSchema& schema = schemaOf(record.kind);
  size_t expected = schema.fixedCount;
  if (schema.hasGroup() && record.fields.size() >= schema.fixedCount && schema.fixedCount > 0)
    expected += schema.groupSize * record.fields[schema.fixedCount - 1];
  if (record.fields.size() != expected)
    fail("a " + kind + " definition needs " + std::to_string(expected) + " fields, not " +
         std::to_string(record.fields.size()));
  model_.definitions.add(std::move(record));
}

void ModelParser::readSignature() {
  if (idAttribute("id", 's') != model_.signatures.size())
    fail("signature ids must be s0, s1, ... in order");
  Signature sig;
  const std::string kind = required("kind");
  if (!eventKindFromName(kind, sig.kind)) fail("unknown event kind \"" + kind + "\"");
  forEachChild([&](std::string_view name) {
    if (name == "Field") {
      sig.fields.push_back(readFieldValue());
    } else if (name == "Attribute") {
      const uint64_t attribute = unsignedAttribute("attribute");
      const uint64_t type = unsignedAttribute("type");
      if (attribute > 0xFFFFFFFFu || type > 0xFF) fail("attribute reference or type out of range");
      sig.attributes.push_back({static_cast<Ref>(attribute), static_cast<uint8_t>(type)});
      skip();
    } else {
      fail("unexpected element <" + std::string(name) + "> in <Signature>");
    }
  });
  if (!compaction::signatureWellFormed(sig))
    fail("a " + kind + " signature with " + std::to_string(sig.fields.size()) +
         " structural fields is malformed");
  model_.signatures.push_back(std::move(sig));
}

NodeKind nodeKindOf(std::string_view element, bool& known) {
  known = true;
  if (element == "RoutineCall") return NodeKind::Call;
  if (element == "PointToPoint") return NodeKind::PointToPoint;
  if (element == "Collective") return NodeKind::Collective;
  if (element == "Sequence") return NodeKind::Sequence;
  known = element == "Event";
  return NodeKind::Other;
}

void ModelParser::readNode(std::string_view element) {
  bool known = false;
  Node node;
  node.kind = nodeKindOf(element, known);
  if (!known) fail("unexpected element <" + std::string(element) + "> in <Nodes>");
  const uint64_t id = idAttribute("id", 'n');
  if (id != model_.nodes.size()) fail("node ids must be n0, n1, ... in order");
  node.eventCount = unsignedAttribute("events");
  auto signature = [&](const char* attribute) {
    const uint64_t sig = idAttribute(attribute, 's');
    if (sig >= model_.signatures.size())
      fail("signature s" + std::to_string(sig) + " is not defined");
    return static_cast<compaction::SigId>(sig);
  };
  if (node.kind == NodeKind::Call) {
    node.sig = signature("enter");
    if (r_.attribute("leave")) node.leaveSig = signature("leave");
  } else if (node.kind != NodeKind::Sequence) {
    node.sig = signature("signature");
  }
  const bool mayHaveEdges = node.kind == NodeKind::Call || node.kind == NodeKind::Sequence;
  forEachChild([&](std::string_view name) {
    if (name != "Edge" || !mayHaveEdges)
      fail("unexpected element <" + std::string(name) + "> in <" + std::string(element) + ">");
    node.edges.push_back(readEdge(id));
  });
  model_.nodes.push_back(std::move(node));
}

Edge ModelParser::readEdge(uint64_t parent) {
  Edge edge;
  const uint64_t child = idAttribute("to", 'n');
  if (child >= parent)
    fail("an edge must point to an earlier node (n" + std::to_string(child) + ")");
  edge.child = static_cast<compaction::NodeId>(child);
  edge.repetitions = unsignedAttribute("repetitions", 1);
  if (edge.repetitions == 0) fail("repetitions must be at least 1");
  const std::string type = r_.attribute("type").value_or("regular");
  if (type == "sequence")
    edge.type = EdgeType::Sequence;
  else if (type == "recursive")
    edge.type = EdgeType::Recursive;
  else if (type != "regular")
    fail("unknown edge type \"" + type + "\"");
  skip();
  return edge;
}

compaction::Annotation ModelParser::readAnnotation() {
  compaction::Annotation annotation;
  annotation.name = required("name");
  const std::vector<uint8_t> data = blobText();
  annotation.data = data;
  return annotation;
}

void ModelParser::readProcess() {
  compaction::LocationModel location;
  location.location = unsignedAttribute("location");
  const uint64_t root = idAttribute("root", 'n');
  if (root >= model_.nodes.size()) fail("root n" + std::to_string(root) + " is not defined");
  location.root = static_cast<compaction::NodeId>(root);
  location.eventCount = unsignedAttribute("events");
  if (model_.findLocation(location.location))
    fail("location " + std::to_string(location.location) + " appears twice");
  forEachChild([&](std::string_view name) {
    if (name == "Values") {
      const std::string encoding = required("encoding");
      if (!isKnownValuesEncoding(encoding)) fail("unknown value encoding \"" + encoding + "\"");
      compaction::ColumnChunk chunk;
      chunk.firstEvent = unsignedAttribute("firstEvent");
      chunk.eventCount = unsignedAttribute("events");
      chunk.firstTime = unsignedAttribute("firstTime");
      chunk.lastTime = unsignedAttribute("lastTime");
      chunk.encoded = blobText();
      if (encoding != valuesEncodingOf(chunk.encoded))
        fail("value encoding \"" + encoding + "\" does not match its data, which is " +
             valuesEncodingOf(chunk.encoded));
      if (needsColumnDictionary(chunk.encoded))
        fail("value chunk needs a column dictionary, which MTF XML has not");
      location.columns.push_back(std::move(chunk));
    } else if (name == "Annotation") {
      location.annotations.push_back(readAnnotation());
    } else if (name == "Loops") {
      skip();  // a readable view of the "nlr" annotation
    } else {
      fail("unexpected element <" + std::string(name) + "> in <Process>");
    }
  });
  model_.locations.push_back(std::move(location));
}

}  // namespace

XmlModel readModelXml(const std::filesystem::path& path) {
  return ModelParser(path).parse();
}

bool looksLikeMtfXml(const std::filesystem::path& path) {
  const Prolog prolog = scanProlog(path, 4096);
  if (!prolog.wellFormedStart) return false;
  const std::string& root = prolog.rootName;
  const size_t colon = root.find(':');
  const std::string local = colon == std::string::npos ? root : root.substr(colon + 1);
  return local == kMtfXmlRoot && prolog.rootAttributes.find(kMtfXmlNamespace) != std::string::npos;
}

}  // namespace mtf::xml
