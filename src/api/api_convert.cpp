// convert(): `mtf convert` behind the public API (atomic output, losses reported).
#include "api/api_impl.hpp"
#include "api/convert_window.hpp"
#include "cli/info_collector.hpp"
#include "filter/selection_sink.hpp"
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

// --- Selection (issue 31, part B) -------------------------------------------------------
filter::SelectionOptions selectionOptions(const ConvertSelection& s) {
  filter::SelectionOptions o;
  o.ranks = s.ranks, o.locations = s.locations;
  o.regions = s.regions, o.excludeRegions = s.excludeRegions;
  o.regionContents = s.regionContents;
  o.kinds = s.kinds, o.excludeKinds = s.excludeKinds;
  return o;
}

filter::Selection prepareSelection(const filter::SelectionOptions& o, TraceSource& source,
                                   const std::string& input) {
  filter::Selection selection = filter::resolveSelection(o, source.definitions(), input);
  if (selection.locations) source.restrictToLocations(selection.locationList(source.definitions()));
  return selection;
}
// --- end of the selection ---------------------------------------------------------------

}  // namespace

ConvertResult convert(const std::string& input, const std::string& output,
                      const ConvertOptions& options) {
  return guarded([&] {
    if (samePath(input, output)) throw UsageError(output + ": the output is the input");
    ReadOptions read;
    read.strict = options.strict;
    auto source = openTrace(input, read);
    const filter::SelectionOptions selectOptions = selectionOptions(options.select);
    const filter::Selection selection = prepareSelection(selectOptions, *source, input);
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
      // The selection first, then the cut (as `mtf convert`: src/cli/cmd_convert.cpp).
      std::unique_ptr<filter::CutSink> cutSink =
          cutInto(cut, selectOptions.any() ? nullptr : source.get(), tee);
      TraceSink& afterSelect = cutSink ? static_cast<TraceSink&>(*cutSink) : tee;
      filter::SelectionSink select(afterSelect, selection);
      filter::StreamPositions positions(select);
      if (cutSink && selectOptions.any()) cutSink->countPositionsBy(positions);
      source->read(selectOptions.any() ? static_cast<TraceSink&>(positions) : afterSelect);
      if (cutSink) result.cut = cutSink->losses();
      result.events = counter.total();
      result.dropped = source->unmodelled();
      result.selectionLost = select.losses();
      for (const auto& [what, n] : writer->losses()) result.dropped[what] += n;
    }  // every file closed before it is moved into place
    if (options.strict && !result.dropped.empty())
      throw InputError(output, "", "strict: the output format cannot hold everything");
    out.commit();
    return result;
  });
}

}  // namespace mtf::api
