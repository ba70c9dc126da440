"""The Python module against the `mtf` program: events by kind on every real trace and on
its .mtf archive, the analyses, filters, conversion and errors."""
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

import mtf
from conftest import DATA, SAMPLE, SOURCE, mtf_info, real_traces, run_mtf

COLUMNS = ["location", "time", "kind", "region", "partner", "tag", "size", "comm"]


def check_events_match_info(path):
    info = mtf_info(path)
    df = mtf.open(path).events()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == COLUMNS
    assert len(df) == info["events"]
    by_kind = {k: int(n) for k, n in df["kind"].value_counts().items() if n}
    assert by_kind == info["events_by_kind"]
    return df, info


@pytest.mark.parametrize("trace", real_traces())
def test_events_of_real_trace(trace):
    df, info = check_events_match_info(DATA / trace)
    assert df["time"].min() == info["first_timestamp"]
    assert df["time"].max() == info["last_timestamp"]


@pytest.mark.parametrize("trace", real_traces())
def test_events_of_archive(trace, archives):
    check_events_match_info(archives[trace])


@pytest.mark.parametrize("trace", real_traces())
def test_archive_frame_on_threads_equals_the_frame_read_in_order(trace, archives):
    """The whole archive's locations are read on several threads, each writing its rows
    in place; a window (time_from=0: every event) is read in order on one thread."""
    t = mtf.open(archives[trace])
    pd.testing.assert_frame_equal(t.events(), t.events(time_from=0))


@pytest.mark.parametrize("trace", real_traces())
def test_info_and_definitions(trace):
    t = mtf.open(DATA / trace)
    expected = mtf_info(DATA / trace)
    got = t.info()
    for key in ["format", "events", "events_by_kind", "resolution", "first_timestamp",
                "last_timestamp", "definitions", "nesting", "locations", "location_types"]:
        assert got[key] == expected[key], key
    assert len(t.definitions["locations"]) == expected["locations"]
    assert t.definitions["resolution"] == expected["resolution"]


def test_columns_are_numpy_not_objects():
    df = mtf.open(SAMPLE).events()
    for column in COLUMNS:
        if column == "kind":
            assert isinstance(df[column].dtype, pd.CategoricalDtype)
        else:
            assert df[column].dtype != np.dtype("O"), column


def test_partners_are_world_ranks_and_regions_are_defined():
    t = mtf.open(SAMPLE)
    df = t.events()
    sends = df[(df.kind == "MpiSend") & (df.location == t.definitions["locations"][0]["id"])]
    assert len(sends) == 160
    assert set(sends.partner) == {1, 2}
    regions = {r["id"] for r in t.definitions["regions"]}
    assert set(df[df.kind == "Enter"].region) <= regions
    assert (df[df.kind == "Enter"].partner == -1).all()


def test_loops_as_the_program_prints_them():
    t = mtf.open(SAMPLE)
    assert t.loops(0)["text"] == run_mtf("loops", SAMPLE, "--location", "0")
    program = t.loops(0)["program"]
    assert program[1]["loop"] == 10
    assert len(t.loops()) == 4
    with pytest.raises(mtf.Error):
        t.loops(12345)


@pytest.mark.parametrize("trace", real_traces())
def test_loops_same_stored_or_recomputed(trace, archives, tmp_path):
    """The .mtf archive stores a nest only where it summarises (the others are recomputed);
    the MTF XML archive stores every one: both give the same loops."""
    xml = tmp_path / "all-stored.mtf.xml"
    run_mtf("convert", DATA / trace, "-o", xml)
    assert mtf.open(archives[trace]).loops() == mtf.open(xml).loops()


def test_patterns_as_the_program_prints_them():
    import json
    assert mtf.open(SAMPLE).patterns() == json.loads(run_mtf("patterns", SAMPLE, "--json"))


def test_stats_as_the_program_prints_them(tmp_path):
    import json
    archive = tmp_path / "s.mtf"
    mtf.convert(SAMPLE, archive)
    expected = json.loads(run_mtf("stats", archive, "--json"))
    got = mtf.open(archive).stats()
    for key in ["events", "dag_nodes", "dag_edges", "tree_nodes", "file_bytes"]:
        assert got["total"][key] == expected["total"][key], key


def test_location_and_window_filters_read_the_same_rows(tmp_path):
    archive = tmp_path / "s.mtf"
    result = mtf.convert(SAMPLE, archive)
    otf2, arch = mtf.open(SAMPLE), mtf.open(archive)
    whole = otf2.events()
    assert result["events"] == len(whole)
    lo, hi = int(whole.time.quantile(0.3)), int(whole.time.quantile(0.6))
    expected = whole[(whole.time >= lo) & (whole.time <= hi)]
    for t in (otf2, arch):
        window = t.events(time_from=lo, time_to=hi)
        assert len(window) == len(expected)
        assert window.time.sum() == expected.time.sum()
        one = t.events(locations=[2])
        assert len(one) == (whole.location == 2).sum()
        assert set(one.location) == {2}


def test_errors():
    with pytest.raises(mtf.Error, match="nonexistent"):
        mtf.open("/nonexistent/trace.otf2")


def test_convert_refuses_an_existing_output(tmp_path):
    out = tmp_path / "x.prv"
    mtf.convert(SAMPLE, out)
    with pytest.raises(mtf.Error):
        mtf.convert(SAMPLE, out)
    assert mtf.convert(SAMPLE, out, force=True)["events"] == mtf_info(SAMPLE)["events"]
    assert len(mtf.open(out).events()) == mtf_info(out)["events"]


def test_dag_roots_expand_to_every_event(tmp_path):
    archive = tmp_path / "s.mtf"
    mtf.convert(SAMPLE, archive)
    for t in (mtf.open(SAMPLE), mtf.open(archive)):
        dag = t.dag()
        assert len(dag["roots"]) == 4
        total = sum(dag["nodes"][root]["event_count"] for root in dag["roots"].values())
        assert total == mtf_info(SAMPLE)["events"]
        assert any(n["kind"] == "call" and n["label"] == "main" for n in dag["nodes"])


# The selection options of convert (issue 31, part B), against the `mtf` program's.
def test_convert_selects_what_mtf_convert_selects(tmp_path):
    cases = [dict(ranks="1-2"), dict(ranks=[0, "3"], regions="MPI_*"),
             dict(exclude_regions=["MPI_Wait*", "MPI_Barrier"], region_contents=True),
             dict(kinds="MpiSend,MpiRecv"), dict(locations="0", exclude_kinds=["Enter"])]
    flags = dict(ranks="--ranks", locations="--locations", kinds="--kinds",
                 exclude_kinds="--exclude-kinds")
    for i, selection in enumerate(cases):
        out, cli = tmp_path / f"p{i}.otf2", tmp_path / f"c{i}.otf2"
        result = mtf.convert(SAMPLE, out, **selection)
        args = []
        for key, value in selection.items():
            if key == "region_contents":
                args.append("--region-contents")
            elif key in ("regions", "exclude_regions"):
                for v in [value] if isinstance(value, str) else value:
                    args += ["--" + key.replace("_", "-"), v]
            else:
                args += [flags[key], value if isinstance(value, str) else ",".join(map(str, value))]
        run_mtf("convert", SAMPLE, "-o", cli, *args)
        assert run_mtf("dump", out) == run_mtf("dump", cli), selection
        assert result["events"] == mtf_info(cli)["events"] < mtf_info(SAMPLE)["events"]
    lost = mtf.convert(SAMPLE, tmp_path / "lost.otf2", ranks="0")["selection_lost"]
    assert lost["message events whose partner is not among the selected locations"] > 0


def test_convert_selection_errors(tmp_path):
    with pytest.raises(mtf.Error, match="no rank 9"):
        mtf.convert(SAMPLE, tmp_path / "x.otf2", ranks="9")
    with pytest.raises(mtf.Error, match="known: BufferFlush"):
        mtf.convert(SAMPLE, tmp_path / "x.otf2", kinds="Sends")
    assert not (tmp_path / "x.otf2").exists()


def test_convert_cuts_a_time_window_as_the_program_does(tmp_path):
    whole = mtf.open(SAMPLE).events()
    lo, hi = int(whole.time.quantile(0.4)), int(whole.time.quantile(0.6))
    out = tmp_path / "cut.mtf"
    result = mtf.convert(SAMPLE, out, begin=f"{lo}t", end=f"{hi}t")
    cut = mtf.open(out).events()
    assert result["events"] == len(cut)
    assert (cut.kind == "Enter").sum() == (cut.kind == "Leave").sum()
    inside = whole[(whole.time >= lo) & (whole.time < hi)]
    calls = ["Enter", "Leave", "MpiCollectiveBegin"]  # entered again at the cut's start

    def by_kind(df):
        return {k: int(n) for k, n in df[~df.kind.isin(calls)].kind.value_counts().items() if n}
    assert by_kind(cut) == by_kind(inside)
    program = tmp_path / "program.mtf"
    run_mtf("convert", SAMPLE, "-o", program, "--begin", f"{lo}t", "--end", f"{hi}t")
    assert mtf_info(program)["events_by_kind"] == mtf_info(out)["events_by_kind"]
    with pytest.raises(mtf.Error, match="--begin 12min"):
        mtf.convert(SAMPLE, tmp_path / "bad.prv", begin="12min")
    assert not (tmp_path / "bad.prv").exists()


# A selection and a cut in one run (issue 31, parts A and B): the same as `mtf convert`'s.
def test_convert_selects_and_cuts_in_one_run(tmp_path):
    whole = mtf.open(SAMPLE).events()
    lo, hi = int(whole.time.quantile(0.3)), int(whole.time.quantile(0.7))
    out, cli = tmp_path / "both.otf2", tmp_path / "cli.otf2"
    result = mtf.convert(SAMPLE, out, ranks="0-1", begin=f"{lo}t", end=f"{hi}t")
    assert set(result) == {"events", "dropped", "selection_lost", "cut"}
    run_mtf("convert", SAMPLE, "-o", cli, "--ranks", "0-1", "--begin", f"{lo}t", "--end", f"{hi}t")
    assert run_mtf("dump", out) == run_mtf("dump", cli)
    assert result["events"] == mtf_info(cli)["events"] < mtf_info(SAMPLE)["events"]


def test_column_dtypes_are_the_contract():
    df = mtf.open(SAMPLE).events()
    dtypes = {c: str(df[c].dtype) for c in COLUMNS if c != "kind"}
    assert dtypes == {"location": "uint64", "time": "uint64", "region": "int32",
                      "partner": "int32", "tag": "int64", "size": "uint64", "comm": "int32"}
    # The kinds present, in kind order; -1 where a kind has no region or communicator.
    kinds = list(df["kind"].cat.categories)
    assert set(kinds) == set(mtf_info(SAMPLE)["events_by_kind"])
    assert (df.region[~df.kind.isin(["Enter", "Leave"])] == -1).all()
    assert (df.comm[df.kind.isin(["Enter", "Leave"])] == -1).all()


def test_columns_grow_past_their_first_room_without_a_count(tmp_path):
    """A filter gives no event count: the columns start with room for 65,536 rows and
    grow (mremap) as they fill; they must hold the same rows as the whole read."""
    trace = tmp_path / "g.otf2"
    subprocess.run([os.environ.get("MTF_GEN", str(SOURCE / "build" / "mtf-gen")), "wavefront",
                    "--ranks", "4", "--iterations", "20", "--inner", "160", "-o", trace],
                   check=True, capture_output=True)
    archive = tmp_path / "g.mtf"
    mtf.convert(trace, archive)
    for path in (trace, archive):
        t = mtf.open(path)
        whole = t.events()
        assert len(whole) > 3 * 65536
        filtered = t.events(time_from=0)  # selects every event, through the filtered path
        pd.testing.assert_frame_equal(whole, filtered)
        del t  # the arrays own their memory: the DataFrames outlive the trace
        assert int(filtered.time.sum()) == int(whole.time.sum())


def test_selected_columns_equal_those_of_the_whole_frame(tmp_path):
    archive = tmp_path / "s.mtf"
    mtf.convert(SAMPLE, archive)
    for path in (SAMPLE, archive):
        t = mtf.open(path)
        whole = t.events()
        for names in (["time"], ["kind", "location"], ["comm", "tag", "size", "partner"],
                      ["region", "time", "kind"]):
            part = t.events(columns=names)
            assert list(part.columns) == names
            pd.testing.assert_frame_equal(part, whole[names])
        window = t.events(locations=[1], time_from=0, columns="time")
        assert list(window.columns) == ["time"]
        assert (window.time.values == whole.time[whole.location == 1].values).all()


def test_selected_columns_errors():
    t = mtf.open(SAMPLE)
    with pytest.raises(ValueError, match="unknown column 'duration'.*location, time"):
        t.events(columns=["time", "duration"])
    with pytest.raises(ValueError, match="named twice"):
        t.events(columns=["time", "time"])
    with pytest.raises(ValueError, match="at least one"):
        t.events(columns=[])
