// convert(): `mtf convert` behind the public API (atomic output, losses reported).
#include "api/api_impl.hpp"
#include "api/convert_window.hpp"
#include "cli/info_collector.hpp"
#include "registry/registry.hpp"
#include "util/safe_output.hpp"

namespace mtf::api {
namespace {

const FormatEntry& outputFormat(const std::string& output, const std::string& to) {
  if (to.empty()) return formatForOutput(output);
  const FormatEntry* f = formatByName(to);
  if (!f || !f->openWriter) throw UsageError("to=" + to + ": no such output format");
  return *f;
}

}  // namespace

ConvertResult convert(const std::string& input, const std::string& output,
                      const ConvertOptions& options) {
  return guarded([&] {
    if (samePath(input, output)) throw UsageError(output + ": the output is the input");
    ReadOptions read;
    read.strict = options.strict;
    auto source = openTrace(input, read);
    const FormatEntry& format = outputFormat(output, options.to);
    filter::CutPlan cut = planConvertCut(cutRequestOf(options), input, *source, read);
    WriteOptions write;
    write.strict = options.strict;
    write.loops = options.loops;
    write.patterns = options.patterns;
    SafeOutput out(output, options.force);
    ConvertResult result;
    {
      auto writer = format.openWriter(out.stagingPath(), write);
      cli::InfoCollector counter;
      TeeSink tee{writer.get(), &counter};
      std::unique_ptr<filter::CutSink> cutSink = cutInto(cut, *source, tee);
      source->read(cutSink ? static_cast<TraceSink&>(*cutSink) : tee);
      if (cutSink) result.cut = cutSink->losses();
      result.events = counter.total();
      result.dropped = source->unmodelled();
      for (const auto& [what, n] : writer->losses()) result.dropped[what] += n;
    }  // every file closed before it is moved into place
    if (options.strict && !result.dropped.empty())
      throw InputError(output, "", "strict: the output format cannot hold everything");
    out.commit();
    return result;
  });
}

}  // namespace mtf::api
