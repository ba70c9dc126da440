#!/usr/bin/env python3
"""Regenerates the committed inputs of tests/bad_inputs/cases/ from small mtf-gen traces.

Usage: make_cases.py BUILD_DIR. Writes each case's input files (and `cmd`); the expected
results (`expected`) are reviewed by hand and never overwritten. Huge inputs (a 1 GB
line, a 64 GB sparse .trc) are not committed: their case holds a make.sh that creates
them at test time in the temp directory, as sparse files.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")


def gen(build, kernel, out, *extra):
    subprocess.run([os.path.join(build, "mtf-gen"), kernel, "--ranks", "2", "--iterations", "1",
                    "-o", out, *extra], check=True, stderr=subprocess.DEVNULL)


def case(name, cmd, files, make_sh=None):
    d = os.path.join(CASES, name)
    os.makedirs(d, exist_ok=True)
    for rel, data in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    with open(os.path.join(d, "cmd"), "w") as f:
        f.write(cmd + "\n")
    if make_sh:
        with open(os.path.join(d, "make.sh"), "w") as f:
            f.write("#!/bin/sh\n# Creates the large input at test time (sparse, never committed).\n"
                    "set -e\n" + make_sh)
    if not os.path.exists(os.path.join(d, "expected")):
        with open(os.path.join(d, "expected"), "w") as f:
            f.write("?\n?\n")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def trailer_with(data, index_offset=None, file_size=None):
    """The .mtf file with its trailer's index offset / file size replaced, CRC recomputed."""
    t = bytearray(data[-32:])
    if index_offset is not None:
        struct.pack_into("<Q", t, 0, index_offset)
    if file_size is not None:
        struct.pack_into("<Q", t, 8, file_size)
    struct.pack_into("<I", t, 20, zlib.crc32(bytes(t[:20])) & 0xFFFFFFFF)
    return data[:-32] + bytes(t)


def flip(data, at, mask=0x10):
    b = bytearray(data)
    b[at] ^= mask
    return bytes(b)


LAUGHS = ['<?xml version="1.0"?>', "<!DOCTYPE Scenario [", ' <!ENTITY lol "lol">']
for i in range(1, 10):
    prev = "lol" if i == 1 else f"lol{i - 1}"
    LAUGHS.append(f' <!ENTITY lol{i} "' + f"&{prev};" * 10 + '">')
LAUGHS += ["]>", '<Scenario xmlns="urn:mtf:xml:1" formatVersion="1">',
           ' <Trace format="x" creator="&lol9;"/>', "</Scenario>", ""]


def paraver_cases(prv, pcf, row):
    lines = prv.split(b"\n")
    header = lines[0].decode()
    # "...:1:1:2(1:1,1:1)" -> the application claims 10^9 tasks (the list stays short).
    tasks = re.sub(r":[0-9]+\(([^()]*)\)$", r":1000000000(\1)", header)
    case("paraver_1e9_tasks", "info t.prv",
         {"t.prv": (tasks + "\n").encode() + b"\n".join(lines[1:]), "t.pcf": pcf, "t.row": row})
    case("paraver_1gb_line", "info t.prv", {"t.pcf": pcf, "t.row": row},
         make_sh=f"printf '%s\\n1:1:1:1:1:0:' '{header}' > t.prv\ntruncate -s 1G t.prv\n")
    cut = prv[: len(prv) // 2]
    case("paraver_truncated", "info t.prv", {"t.prv": cut[: cut.rfind(b":")], "t.pcf": pcf,
                                              "t.row": row})
    third = prv.index(b"\n", prv.index(b"\n", prv.index(b"\n") + 1) + 1) + 3
    case("paraver_bitflip", "info t.prv", {"t.prv": flip(prv, third, 0x40), "t.pcf": pcf,
                                            "t.row": row})
    gz = zlib.compressobj(9, zlib.DEFLATED, 31)
    data = gz.compress(prv) + gz.flush()
    case("paraver_gz_truncated", "info t.prv.gz", {"t.prv.gz": data[: len(data) * 2 // 3], "t.pcf": pcf, "t.row": row})


def tau_cases(edf, trc):
    first, rest = edf.split(b"\n", 1)
    big = b"1099511627776 dynamic_trace_events\n" + rest
    case("tau_edf_2e40_events", "info trace",
         {"trace/events.0.edf": big, "trace/tautrace.0.0.0.trc": trc})
    case("tau_trc_64g_sparse", "info trace", {"trace/events.0.edf": edf},
         make_sh="cp trc.part trace/tautrace.0.0.0.trc\ntruncate -s 64G trace/tautrace.0.0.0.trc\n")
    with open(os.path.join(CASES, "tau_trc_64g_sparse", "trc.part"), "wb") as f:
        f.write(trc)
    case("tau_trc_truncated", "info trace",
         {"trace/events.0.edf": edf, "trace/tautrace.0.0.0.trc": trc[: len(trc) // 2 + 5]})
    case("tau_trc_bitflip", "info trace",
         {"trace/events.0.edf": edf, "trace/tautrace.0.0.0.trc": flip(trc, 24 * 5 + 1, 0x80)})
    case("tau_edf_garbage_line", "info trace",
         {"trace/events.0.edf": edf.replace(b'"MPI_Send"', b'MPI_Send" EntryExit'),
          "trace/tautrace.0.0.0.trc": trc})


def mtf_cases(mtf):
    case("mtf_index_past_end", "info t.mtf", {"t.mtf": trailer_with(mtf, index_offset=len(mtf) + 4096)})
    case("mtf_trailer_claims_1tb", "info t.mtf",
         {"t.mtf": trailer_with(mtf, index_offset=1 << 40, file_size=(1 << 40) + 64)})
    case("mtf_truncated", "info t.mtf", {"t.mtf": mtf[: len(mtf) // 2]})
    case("mtf_bitflip", "validate t.mtf", {"t.mtf": flip(mtf, 200)})


def xml_cases(xml):
    laughs = "\n".join(LAUGHS)
    case("xml_billion_laughs_validate", "validate t.mtf.xml", {"t.mtf.xml": laughs})
    case("xml_billion_laughs_info", "info t.mtf.xml", {"t.mtf.xml": laughs})
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE Scenario [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>\n'
           '<Scenario xmlns="urn:mtf:xml:1" formatVersion="1"><Trace format="&x;"/></Scenario>\n')
    case("xml_external_entity", "validate t.mtf.xml", {"t.mtf.xml": xxe})
    case("xml_truncated", "info t.mtf.xml", {"t.mtf.xml": xml[: len(xml) // 2]})
    at = xml.index(b"<Event") + 1
    case("xml_bitflip", "info t.mtf.xml", {"t.mtf.xml": flip(xml, at, 0x20)})


def pattern_cases(prv, pcf, row):
    trace = {"t.prv": prv, "t.pcf": pcf, "t.row": row}
    case("pattern_1e12_processes", "match t.prv --pattern huge.pattern",
         dict(trace, **{"huge.pattern": "name huge\nprocesses 1000000000000\nrank 0: S1\n"}))
    case("pattern_too_many_events", "match t.prv --pattern many.pattern", trace,
         make_sh="# 2 ranks x 600,000 events > 2^20 (a 2.4 MB pattern, made at test time).\n"
                 "{ printf 'rank *:'; yes ' S+1' | head -n 600000 | tr -d '\\n'; printf '\\n'; }"
                 " > many.pattern\n")
    case("pattern_more_processes_than_trace", "match t.prv --pattern wide.pattern",
         dict(trace, **{"wide.pattern": "processes 1048576\nrank *: S+1 R-1\n"}))


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    with tempfile.TemporaryDirectory() as tmp:
        gen(build, "ring", os.path.join(tmp, "r.prv"))
        gen(build, "ring", os.path.join(tmp, "r.mtf"))
        gen(build, "ring", os.path.join(tmp, "tau"), "--to", "tau")
        subprocess.run([os.path.join(build, "mtf"), "convert", os.path.join(tmp, "r.prv"), "-o",
                        os.path.join(tmp, "r.mtf.xml"), "--no-loops"], check=True,
                       stderr=subprocess.DEVNULL)
        paraver_cases(read(f"{tmp}/r.prv"), read(f"{tmp}/r.pcf"), read(f"{tmp}/r.row"))
        pattern_cases(read(f"{tmp}/r.prv"), read(f"{tmp}/r.pcf"), read(f"{tmp}/r.row"))
        tau_cases(read(f"{tmp}/tau/events.0.edf"), read(f"{tmp}/tau/tautrace.0.0.0.trc"))
        mtf_cases(read(f"{tmp}/r.mtf"))
        xml_cases(read(f"{tmp}/r.mtf.xml"))


if __name__ == "__main__":
    main()
