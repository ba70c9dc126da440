#include "converters/mtf/xml/mtf_xml_format.hpp"

#include <memory>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "converters/mtf/xml/mtf_xml_loops.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "converters/mtf/xml/xml_validate.hpp"
#include "nlr/loop_annotation.hpp"
#include "nlr/nlr_sink.hpp"
#include "patterns/analysis.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf {

namespace {

// TracePattern / PatternOccurrence elements of the pattern analysis, as XML views.
xml::ViewElement viewOf(const patterns::PatternElement& e) {
  xml::ViewElement view{e.element, e.attributes, {}};
  for (const patterns::PatternElement& child : e.children) view.children.push_back(viewOf(child));
  return view;
}

compaction::CompactorOptions xmlCompactorOptions() {
  compaction::CompactorOptions options;
  options.columnDictionary = false;
  return options;
}

// Compacts the event stream (streaming, like every compaction) and, unless loops are
// off, runs Nested Loop Recognition beside it; writes the model as XML once the last
// event is in. With loops, the program model's nests derive from the loops' symbols
// (nlr/communication_stream.hpp) instead of a second NLR over the events.
class MtfXmlSink : public TraceSink {
 public:
  MtfXmlSink(fs::path path, const WriteOptions& options)
      : path_(std::move(path)), structureOnly_(options.structureOnly), withModel_(options.model) {
    if (options.loops) {
      loops_ = std::make_unique<nlr::NlrSink>(nlr::NlrOptions{}, nlr::storedSignatureOptions());
      if (options.model) loops_->deriveCommunicationStream();
    }
    if (options.patterns) patterns_ = std::make_unique<patterns::PatternDetector>();
    if (options.model && !loops_) model_ = std::make_unique<program::ModelAnnotationSink>(nullptr);
  }
  void begin(const Definitions& defs) override {
    compactor_.begin(defs);
    if (loops_) loops_->begin(defs);
    if (patterns_) patterns_->begin(defs);
    if (model_) model_->begin(defs);
  }
  void event(const Event& e) override {
    compactor_.event(e);
    if (loops_) loops_->event(e);
    if (patterns_) patterns_->event(e);
    if (model_) model_->event(e);
  }
  void end() override {
    compactor_.end();
    if (loops_) {
      loops_->end();
      xml::attachLoopAnnotations(*loops_, compactor_.model());
    }
    std::vector<xml::ViewElement> views;
    if (patterns_) {  // --patterns: the trace-wide annotation "patterns" (patterns/analysis.hpp)
      patterns_->end();
      const patterns::PatternReport report = patterns::analyzeDetected(*patterns_);
      compactor_.model().annotations.push_back(
          {patterns::kPatternsAnnotation, patterns::annotationBlob(report)});
      for (const patterns::PatternElement& e : patterns::patternElements(report))
        views.push_back(viewOf(e));
    }
    if (withModel_) {  // the trace-wide annotation "program.model" (src/program)
      if (model_) model_->end();
      compactor_.model().annotations.push_back(
          {program::kModelAnnotationName,
           model_ ? model_->blob() : program::programModelBlob(loops_->derivedResults())});
    }
    xml::writeModelXml(compactor_.model(), path_, structureOnly_, views);
  }

 private:
  fs::path path_;
  bool structureOnly_;
  bool withModel_;
  // XML has no place for a column dictionary: every chunk must decode on its own.
  compaction::Compactor compactor_{xmlCompactorOptions()};
  std::unique_ptr<nlr::NlrSink> loops_;
  std::unique_ptr<patterns::PatternDetector> patterns_;
  std::unique_ptr<program::ModelAnnotationSink> model_;  // the model without loops_
};

class MtfXmlSource : public TraceSource {
 public:
  explicit MtfXmlSource(fs::path path) : path_(std::move(path)) {}
  const Definitions& definitions() override { return load()->model.definitions; }
  void read(TraceSink& sink) override {
    const std::shared_ptr<xml::XmlModel> loaded = load();
    if (loaded->structureOnly)
      throw InputError(path_.string(), "",
                       "structure-only MTF XML holds no timestamps or values, so it cannot give "
                       "the events back (write it without --structure-only)");
    compaction::ExpandOptions options;
    options.sourceName = path_.string();
    // Shares the loaded model (no copy): definitions() stays valid during and after.
    std::shared_ptr<const compaction::CompactModel> model(loaded, &loaded->model);
    compaction::ModelSource(model, options).read(sink);
  }

 private:
  std::shared_ptr<xml::XmlModel> load() {
    if (!loaded_) loaded_ = std::make_shared<xml::XmlModel>(xml::readModelXml(path_));
    return loaded_;
  }
  fs::path path_;
  std::shared_ptr<xml::XmlModel> loaded_;
};

bool sniffMtfXml(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && xml::looksLikeMtfXml(path);
}

}  // namespace

namespace xml {

std::string validateMtfXmlFile(const fs::path& path, const fs::path& schema) {
  const fs::path xsd = locateSchema(schema);
  validateAgainstSchema(path, xsd);
  const auto loaded = std::make_shared<XmlModel>(readModelXml(path));
  const compaction::CompactModel& model = loaded->model;
  struct CountingSink : TraceSink {
    void begin(const Definitions&) override {}
    void event(const Event&) override { ++events; }
    void end() override {}
    uint64_t events = 0;
  } counter;
  uint64_t events = 0;
  for (const compaction::LocationModel& l : model.locations) events += l.eventCount;
  if (!loaded->structureOnly) {
    compaction::ExpandOptions options;
    options.sourceName = path.string();
    compaction::ModelSource(std::shared_ptr<const compaction::CompactModel>(loaded, &model),
                            options)
        .read(counter);
    if (counter.events != events)
      throw InputError(path.string(), "",
                       "the values give " + std::to_string(counter.events) +
                           " events, the structure " + std::to_string(events));
  }
  return path.string() + ": valid MTF XML (schema " + xsd.string() +
         "): " + std::to_string(model.locations.size()) + " locations, " + std::to_string(events) +
         " events, " + std::to_string(model.nodes.size()) + " DAG nodes" +
         (loaded->structureOnly ? ", structure only (no values)" : ", every value column decoded");
}

}  // namespace xml

FormatEntry mtfXmlFormat() {
  FormatEntry entry;
  entry.name = "mtf-xml";
  entry.description =
      "MTF XML: the compacted model (ordered DAG, definitions, value columns) "
      "as XML following schema/mtf.xsd";
  entry.extensions = {".mtf.xml"};
  entry.sniff = sniffMtfXml;
  entry.openReader = [](const fs::path& path, const ReadOptions&) -> std::unique_ptr<TraceSource> {
    return std::make_unique<MtfXmlSource>(path);
  };
  entry.openWriter = [](const fs::path& path,
                        const WriteOptions& options) -> std::unique_ptr<TraceSink> {
    return std::make_unique<MtfXmlSink>(path, options);
  };
  return entry;
}

}  // namespace mtf
