// The Python module `mtf._mtf`: the public C++ API (include/mtf/) as Python values. The
// package `mtf` (mtf/__init__.py) builds pandas DataFrames from what this returns.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "event_columns.hpp"
#include "mtf/mtf.hpp"

namespace mtf::python {
namespace {

py::dict definitionsDict(const api::Definitions& d) {
  py::dict out;
  out["format"] = d.format;
  out["format_version"] = d.formatVersion;
  out["creator"] = d.creator;
  out["resolution"] = d.resolution;
  py::list locations, regions, comms;
  for (const api::Location& l : d.locations)
    locations.append(py::dict(py::arg("id") = l.id, py::arg("name") = l.name,
                              py::arg("type") = l.type, py::arg("rank") = l.rank,
                              py::arg("group") = l.group, py::arg("group_name") = l.groupName));
  for (const api::Region& r : d.regions)
    regions.append(py::dict(py::arg("id") = r.id, py::arg("name") = r.name,
                            py::arg("role") = r.role, py::arg("paradigm") = r.paradigm));
  for (const api::Communicator& c : d.communicators)
    comms.append(py::dict(py::arg("id") = c.id, py::arg("name") = c.name,
                          py::arg("world_ranks") = c.worldRanks, py::arg("self") = c.self));
  out["locations"] = locations;
  out["regions"] = regions;
  out["communicators"] = comms;
  out["counts"] = d.counts;
  return out;
}

// The keys of `mtf info --json` (time_span_seconds left out: a float of the ticks).
py::dict infoDict(const api::Info& i, const api::Definitions& d) {
  py::dict out;
  out["format"] = i.format;
  out["format_version"] = i.formatVersion;
  out["creator"] = i.creator;
  out["locations"] = i.locations;
  std::map<std::string, uint64_t> types;
  for (const api::Location& l : d.locations) ++types[l.type];
  out["location_types"] = types;
  out["events"] = i.events;
  out["events_by_kind"] = i.eventsByKind;
  out["resolution"] = i.resolution;
  out["first_timestamp"] = i.firstTimestamp;
  out["last_timestamp"] = i.lastTimestamp;
  out["time_span_ticks"] = i.events ? i.lastTimestamp - i.firstTimestamp : 0;
  out["definitions"] = i.definitions;
  out["input_records"] = i.inputRecords;
  out["unmodelled"] = i.unmodelled;
  out["nesting"] =
      py::dict(py::arg("max_depth") = i.maxDepth, py::arg("calls_never_left") = i.callsNeverLeft,
               py::arg("leaves_without_enter") = i.leavesWithoutEnter,
               py::arg("leaves_mismatched") = i.leavesMismatched,
               py::arg("unbalanced_locations") = i.unbalancedLocations);
  return out;
}

py::dict figuresDict(const api::CompactionFigures& f) {
  return py::dict(py::arg("events") = f.events, py::arg("tree_nodes") = f.treeNodes,
                  py::arg("tree_edges") = f.treeEdges, py::arg("dag_nodes") = f.dagNodes,
                  py::arg("dag_edges") = f.dagEdges, py::arg("messages_before") = f.messagesBefore,
                  py::arg("messages_after") = f.messagesAfter,
                  py::arg("compaction_rate") = f.compactionRate);
}

py::dict statsDict(const api::Stats& s) {
  py::dict total = figuresDict(s.total);
  total["structure_bytes"] = s.structureBytes;
  total["value_bytes"] = s.valueBytes;
  total["definition_bytes"] = s.definitionBytes;
  total["index_bytes"] = s.indexBytes;
  total["file_bytes"] = s.fileBytes;
  py::list locations;
  for (const auto& [id, f] : s.locations) {
    py::dict l = figuresDict(f);
    l["location"] = id;
    locations.append(l);
  }
  return py::dict(py::arg("sizes_from") = s.sizesFromFile ? "file" : "in_memory_compaction",
                  py::arg("total") = total, py::arg("locations") = locations);
}

py::dict dagDict(const api::Dag& dag) {
  py::list nodes;
  for (const api::DagNode& n : dag.nodes) {
    py::list edges;
    for (const api::DagEdge& e : n.edges)
      edges.append(py::dict(py::arg("child") = e.child, py::arg("repetitions") = e.repetitions,
                            py::arg("type") = e.type));
    nodes.append(py::dict(py::arg("kind") = n.kind, py::arg("label") = n.label,
                          py::arg("event_count") = n.eventCount, py::arg("edges") = edges));
  }
  py::dict roots;
  for (const auto& [location, root] : dag.roots) roots[py::int_(location)] = root;
  return py::dict(py::arg("nodes") = nodes, py::arg("roots") = roots);
}

py::list programList(const std::vector<api::LoopElement>& elements) {
  py::list out;
  for (const api::LoopElement& e : elements) {
    if (e.loop)
      out.append(py::dict(py::arg("loop") = e.iterations, py::arg("body") = programList(e.body)));
    else
      out.append(py::dict(py::arg("event") = e.event));
  }
  return out;
}

py::dict loopsDict(const api::LocationLoops& l) {
  return py::dict(py::arg("location") = l.location, py::arg("name") = l.name,
                  py::arg("rank") = l.rank, py::arg("events") = l.events,
                  py::arg("elements") = l.elements, py::arg("program") = programList(l.program),
                  py::arg("text") = l.text);
}

py::tuple eventColumns(api::Trace& trace, const std::optional<std::vector<uint64_t>>& locations,
                       std::optional<uint64_t> from, std::optional<uint64_t> to,
                       const std::optional<std::vector<std::string>>& names) {
  const ColumnSet wanted = names ? columnSetOf(*names) : kAllColumns;
  api::EventFilter filter;
  if (locations) filter.locations = *locations;
  if (from) filter.from = *from;
  if (to) filter.to = *to;
  const bool whole = !locations && !from && !to;
  std::unique_ptr<EventColumns> columns;
  {
    py::gil_scoped_release unlocked;  // no Python object is touched while the trace streams
    if (const std::optional<uint64_t> exact = trace.eventCount(filter)) {
      // Each block written into its own rows, locations read on several threads at once.
      columns = std::make_unique<EventColumns>(*exact, wanted, true);
      trace.eventRowsOnThreads(
          [&](uint64_t first, const api::EventRows& rows) { columns->place(first, rows); }, filter);
    } else {
      columns = std::make_unique<EventColumns>(whole ? trace.eventCountHint() : 0, wanted);
      trace.eventRows([&](const api::EventRows& rows) { columns->add(rows); }, filter);
    }
  }
  return columns->release();
}

}  // namespace
}  // namespace mtf::python

using namespace mtf;
using namespace mtf::python;

PYBIND11_MODULE(_mtf, m) {
  m.doc() = "mtf: read, convert and analyse MPI execution traces (the C++ API, include/mtf/)";
  py::register_exception<api::Error>(m, "Error", PyExc_RuntimeError);
  m.def("version", &api::version);
  py::class_<api::Trace>(m, "_Trace")
      .def(py::init([](const std::string& path, bool lenient) {
             return api::Trace::open(path, api::OpenOptions{lenient});
           }),
           py::arg("path"), py::arg("lenient") = false)
      .def_property_readonly("path", &api::Trace::path)
      .def_property_readonly("format", &api::Trace::format)
      .def("definitions", [](api::Trace& t) { return definitionsDict(t.definitions()); })
      .def("events", &eventColumns, py::arg("locations") = py::none(),
           py::arg("time_from") = py::none(), py::arg("time_to") = py::none(),
           py::arg("columns") = py::none())
      .def("info", [](api::Trace& t) { return infoDict(t.info(), t.definitions()); })
      .def("stats", [](api::Trace& t) { return statsDict(t.stats()); })
      .def("dag", [](api::Trace& t) { return dagDict(t.dag()); })
      .def(
          "loops",
          [](api::Trace& t, std::optional<uint64_t> location) {
            py::list out;
            for (const api::LocationLoops& l : t.loops(location)) out.append(loopsDict(l));
            return out;
          },
          py::arg("location") = py::none())
      .def("patterns_json", [](api::Trace& t) { return t.patterns().json; });
  // The selection options of convert (issue 31, part B), filled by mtf/__init__.py.
  py::class_<api::ConvertSelection>(m, "ConvertSelection")
      .def(py::init<>())
      .def_readwrite("ranks", &api::ConvertSelection::ranks)
      .def_readwrite("locations", &api::ConvertSelection::locations)
      .def_readwrite("regions", &api::ConvertSelection::regions)
      .def_readwrite("exclude_regions", &api::ConvertSelection::excludeRegions)
      .def_readwrite("region_contents", &api::ConvertSelection::regionContents)
      .def_readwrite("kinds", &api::ConvertSelection::kinds)
      .def_readwrite("exclude_kinds", &api::ConvertSelection::excludeKinds);
  m.def(
      "convert",
      [](const std::string& input, const std::string& output, const std::string& to, bool strict,
         bool force, bool loops, bool patterns, const api::ConvertSelection& select,
         const std::string& begin, const std::string& end, bool shiftTimes,
         const std::string& construct, const std::string& iterations) {
        api::ConvertOptions o;
        o.to = to;
        o.strict = strict;
        o.force = force;
        o.loops = loops;
        o.patterns = patterns;
        o.select = select;
        // The cut (issue 31, part A), as `mtf convert --begin/--end/--construct...`.
        o.begin = begin;
        o.end = end;
        o.shiftTimes = shiftTimes;
        o.construct = construct;
        o.iterations = iterations;
        const api::ConvertResult r = api::convert(input, output, o);
        return py::dict(py::arg("events") = r.events, py::arg("dropped") = r.dropped,
                        py::arg("selection_lost") = r.selectionLost, py::arg("cut") = r.cut);
      },
      py::arg("input"), py::arg("output"), py::arg("to") = "", py::arg("strict") = false,
      py::arg("force") = false, py::arg("loops") = true, py::arg("patterns") = false,
      py::arg("select") = api::ConvertSelection{}, py::arg("begin") = "", py::arg("end") = "",
      py::arg("shift_times") = false, py::arg("construct") = "", py::arg("iterations") = "");
}
