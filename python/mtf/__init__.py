"""mtf: read, convert and analyse MPI execution traces (OTF2, Paraver, TAU, MTF).

    import mtf
    t = mtf.open("traces.otf2")      # the format is found by content
    df = t.events()                  # a pandas DataFrame, one row per event
    t.definitions, t.info(), t.stats(), t.dag(), t.loops(0), t.patterns()
    mtf.convert("traces.otf2", "trace.mtf")

Errors raise mtf.Error (a RuntimeError) naming the file and the place. docs/api.md
describes the columns and the semantics (time in integer ticks, partners as world ranks).
"""
import json

import pandas as pd

from ._mtf import Error, _Trace, version
from ._mtf import convert as _convert
from ._mtf import ConvertSelection as _ConvertSelection

__all__ = ["Error", "Trace", "open", "convert", "version"]


class Trace:
    """A trace of any format mtf reads. Nothing is read before it is asked for."""

    def __init__(self, path, lenient=False):
        self._trace = _Trace(str(path), lenient)
        self._definitions = None

    @property
    def path(self):
        return self._trace.path

    @property
    def format(self):
        return self._trace.format

    @property
    def definitions(self):
        """dict: format, format_version, creator, resolution (ticks per second),
        locations, regions, communicators (lists of dicts), counts (records by kind)."""
        if self._definitions is None:
            self._definitions = self._trace.definitions()
        return self._definitions

    def events(self, locations=None, time_from=None, time_to=None, columns=None):
        """The events as a DataFrame: location, time (ticks), kind (categorical), region,
        partner (world rank), tag, size (bytes) and comm (-1 where the kind has none).
        `locations` (ids) and the inclusive window [time_from, time_to] select rows; on an
        .mtf archive only the chunks they need are read, on OTF2 only those locations.
        `columns` (names) selects columns, in that order: the others cost no memory."""
        if isinstance(columns, str):
            columns = [columns]
        names = None if columns is None else [str(c) for c in columns]
        if names is not None and not names:
            raise ValueError(f"{self.path}: columns: name at least one")
        if names is not None and len(set(names)) != len(names):
            raise ValueError(f"{self.path}: columns named twice: {names}")
        try:
            arrays, kinds = self._trace.events(
                None if locations is None else [int(l) for l in locations], time_from, time_to,
                names)
        except ValueError as e:
            raise ValueError(f"{self.path}: {e}") from None
        if "kind" in arrays:
            arrays["kind"] = pd.Categorical.from_codes(arrays["kind"], categories=kinds)
        data = {name: arrays[name] for name in (names if names is not None else arrays)}
        # copy=False: the numpy arrays filled in C++ become the columns as they are.
        return pd.DataFrame(data, copy=False)

    def info(self):
        """What `mtf info --json` prints (without time_span_seconds), as a dict."""
        return self._trace.info()

    def stats(self):
        """What `mtf stats --json` prints (compaction figures), as a dict."""
        return self._trace.stats()

    def dag(self):
        """The compacted structure: {"nodes": [{kind, label, event_count, edges: [{child,
        repetitions, type}]}] (children before parents), "roots": {location: node}}."""
        return self._trace.dag()

    def loops(self, location=None):
        """The loop program of `location` (a dict: location, name, rank, events, elements,
        program, text), or of every location (a list of such dicts) if location is None."""
        if location is None:
            return self._trace.loops(None)
        found = self._trace.loops(int(location))
        if not found:
            raise Error(f"{self.path}: location {location}: no events at this location")
        return found[0]

    def patterns(self):
        """What `mtf patterns --json` prints, as a dict."""
        return json.loads(self._trace.patterns_json())

    def __repr__(self):
        return f"mtf.Trace({self.path!r}, format={self.format!r})"


def open(path, lenient=False):
    """Opens a trace of any format mtf reads (found by content)."""
    return Trace(path, lenient)


def convert(input, output, to="", strict=False, force=False, loops=True, patterns=False,
            begin="", end="", shift_times=False, construct="", iterations="", **selection):
    """Converts `input` to `output` (format by name or `to`), atomically. Returns a dict:
    events, dropped (what the output format could not hold, by description), selection_lost
    (message events whose partner the selection dropped, roots it did not keep), cut (what
    a cut could not keep whole: messages whose partner lies outside it).

    Selection, as `mtf convert`'s options of the same names (README): ranks="0-3,7",
    locations="0-15" (ids or names), regions="MPI_*" or a list of globs,
    exclude_regions=..., region_contents=True, kinds="Enter,MpiSend", exclude_kinds=....

    A cut, as `mtf convert` makes it: a time window `begin`/`end` ("1.25", "800ms",
    "123456t", "+2.5s"; `shift_times`: times start at 0 at `begin`), or iterations "A-B"
    of the loop `construct` of the program model (`mtf model --positions`). With both, the
    selection comes first and the cut cuts the selected trace."""
    return _convert(str(input), str(output), to, strict, force, loops, patterns,
                    _selection(**selection), str(begin), str(end), shift_times, str(construct),
                    str(iterations))


def _patterns(value):
    return [value] if isinstance(value, str) else [str(v) for v in value]


def _list(value):  # "0-3,7", or a list such as [0, 1, "7-9"]
    return value if isinstance(value, str) else ",".join(str(v) for v in value)


# The selection options of convert (issue 31, part B).
def _selection(ranks="", locations="", regions=(), exclude_regions=(), region_contents=False,
               kinds="", exclude_kinds=""):
    s = _ConvertSelection()
    s.ranks, s.locations = _list(ranks), _list(locations)
    s.regions, s.exclude_regions = _patterns(regions), _patterns(exclude_regions)
    s.region_contents = bool(region_contents)
    s.kinds, s.exclude_kinds = _list(kinds), _list(exclude_kinds)
    return s
