#include "api/convert_window.hpp"

#include "api/stored_model.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"
#include "program/model_annotation.hpp"
#include "registry/registry.hpp"

namespace mtf::api {

namespace {

// The program model an .mtf archive stores, or the one its events give.
program::ProgramModel programModelOf(const std::string& path, const ReadOptions& read) {
  if (detectInputFormat(path).name == "mtf")
    if (auto stored = api_impl::storedProgramModel(*mtfbin::ArchiveReader(path).model(), path))
      return std::move(*stored);
  nlr::NlrSink sink(nlr::NlrOptions{}, program::modelSignatureOptions());
  nlr::BatchedNlrSink batched(sink);
  openTrace(path, read)->read(batched);
  return program::buildProgramModel(sink.results(), 2);
}

}  // namespace

filter::CutRequest cutRequestOf(const ConvertOptions& o) {
  filter::CutRequest r;
  r.begin = o.begin;
  r.end = o.end;
  r.shiftTimes = o.shiftTimes;
  r.construct = o.construct;
  r.iterations = o.iterations;
  return r;
}

filter::CutPlan planConvertCut(const filter::CutRequest& request, const std::string& input,
                               TraceSource& source, const ReadOptions& read) {
  if (!request.any()) return {};
  filter::CutPlan plan = filter::planCut(
      request, source.definitions(), input, [&] { return programModelOf(input, read); },
      [&] { return openTrace(input, read); });
  return plan;
}

std::unique_ptr<filter::CutSink> cutInto(filter::CutPlan& plan, TraceSource* source,
                                         TraceSink& out) {
  if (!plan.rule) return nullptr;
  auto sink = std::make_unique<filter::CutSink>(out, std::move(plan.rule));
  if (auto* archive = dynamic_cast<mtfbin::ArchiveSource*>(source); archive && plan.window)
    archive->restrictToWindow(plan.window->from, plan.window->to, *sink);  // reads less
  return sink;
}

}  // namespace mtf::api
