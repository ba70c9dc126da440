#!/usr/bin/python3
"""A reader of MTF binary archives written from docs/mtf-format.md alone.

Usage: mtf_spec_reader.py ARCHIVE.mtf [DOC.md]

Decodes the archive following the document (section numbers in the comments) and prints
its definitions and events in the text form of `mtf dump`, so that the two can be
compared line for line. The kind tables (appendices A and B) are read from the document
itself. Standard library only, and python3-zstandard for column codings 3 to 5.
"""

import hashlib
import lzma
import os
import re
import struct
import sys
import zlib

from mtf_spec_columns import decode_chunk
from mtf_spec_definitions import WELL_KNOWN_V4, Definitions
from mtf_spec_common import MASK, UNDEFINED_REF, Bad, Reader, signed64, unzigzag


# ---------------------------------------------------------------- appendices A and B
def kind_tables(doc_path):
    text = open(doc_path, encoding="utf-8").read()

    def table(tag):
        block = re.search(r"```" + tag + r"\n(.*?)```", text, re.S).group(1)
        kinds = []
        for line in block.strip("\n").split("\n"):
            parts = line.split()
            fields = []
            for spec in parts[2:]:
                name, ftype = spec.split(":")
                fields.append((name.lstrip("*"), ftype, name.startswith("*")))
            assert int(parts[0]) == len(kinds)
            kinds.append((parts[1], fields))
        return kinds

    return table("mtf-event-kinds"), table("mtf-definition-kinds")


# appendix C: the well-known strings, one a line, numbered from 0 (version 4: the first 408)
def well_known_strings(doc_path):
    text = open(doc_path, encoding="utf-8").read()
    block = re.search(r"```mtf-well-known-strings\n(.*?)```", text, re.S).group(1)
    strings = [line.encode() for line in block.strip("\n").split("\n")]
    # then each mtf-well-known-text block, verbatim
    strings += [t.encode() for t in re.findall(r"```mtf-well-known-text\n(.*?)```", text, re.S)]
    assert len(strings) == WELL_KNOWN_V4
    # then (version 5) the strings mtf's readers define
    block = re.search(r"```mtf-well-known-strings-5\n(.*?)```", text, re.S).group(1)
    strings += [line.encode() for line in block.strip("\n").split("\n")]
    return strings + [t.encode() for t in re.findall(r"```mtf-well-known-text-5\n(.*?)```", text, re.S)]


# the document beside this reader's repository
DEFAULT_DOC = os.path.abspath(__file__).rsplit("/tests/", 1)[0] + "/docs/mtf-format.md"


# ---------------------------------------------------------------- section 3: file layout
MAGIC = b"\x89MTF\r\n\x1a\n"
END_MAGIC = b"MTF-END\n"
KIND_NAMES = {1: "Columns", 2: "Definitions", 3: "Signatures", 4: "Nodes", 5: "Locations",
              6: "Annotations", 7: "Index", 8: "Structure"}
# section 4.1: the kinds a version 1 or 2 index may list (no Structure chunk there)
INDEX_KINDS = (1, 2, 3, 4, 5, 6, 7)
# section 3.2: the sections of a version 3 or 4 Structure chunk, in order
SECTIONS = ["Index", "Definitions", "Signatures", "Nodes", "Locations", "Annotations",
            "ColumnDictionary"]


# section 3.1: the built-in vocabulary of version 6, the file the document names with its
# size and SHA-256 (relative to the repository, the document's parent directory)
def vocabulary(doc_path):
    text = open(doc_path, encoding="utf-8").read()
    found = re.search(r"```mtf-vocabulary\nfile (\S+)\nsize (\d+)\nsha256 ([0-9a-f]{64})\n```", text)
    path, size, digest = found.group(1), int(found.group(2)), found.group(3)
    root = os.path.dirname(os.path.dirname(os.path.abspath(doc_path)))
    content = open(os.path.join(root, path), "rb").read()
    if len(content) != size or hashlib.sha256(content).hexdigest() != digest:
        raise Bad("%s is not the vocabulary the document names" % path)
    return content


# section 3.1: a Structure chunk's stored bytes are an LZMA2 property byte, then raw LZMA2;
# version 6: with the vocabulary as preset dictionary. Python's lzma takes no preset
# dictionary, but LZMA2 can say the same: an uncompressed chunk (control byte 1, which
# resets the dictionary, then the size - 1 in two bytes big-endian) holding the vocabulary
# before the stream, whose output then begins with the vocabulary.
def lzma2_expand(body, preset=b""):
    if not body or body[0] > 40:
        raise Bad("bad LZMA2 property byte")
    prop = body[0]
    dict_size = 0xFFFFFFFF if prop == 40 else (2 | (prop & 1)) << (prop // 2 + 11)
    filters = [{"id": lzma.FILTER_LZMA2, "dict_size": dict_size}]
    assert len(preset) <= 65536
    prefix = b"\x01" + (len(preset) - 1).to_bytes(2, "big") + preset if preset else b""
    try:
        out = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filters).decompress(prefix + body[1:])
        return out[len(preset):]
    except lzma.LZMAError as problem:
        raise Bad("LZMA2 stream: %s" % problem)


def header_size(version, stored):
    """Section 3: the header of a column chunk of `stored` bytes (raw size 0)."""
    if version < 7:
        return 24
    return 5 + len(varint_bytes(stored)) + 1


def varint_bytes(value):
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


class Archive:
    def __init__(self, data, doc_path=None):
        self.data = data
        self.doc_path = doc_path or DEFAULT_DOC
        if len(data) < 48 or data[:8] != MAGIC:
            raise Bad("not an MTF archive")
        self.version = struct.unpack_from("<I", data, 8)[0]
        if self.version not in (1, 2, 3, 4, 5, 6, 7, 8, 9):
            raise Bad("archive version %d is not supported" % self.version)
        trailer = data[-32:]
        if trailer[24:] != END_MAGIC:
            raise Bad("end magic missing")
        index_offset, size, _version, crc = struct.unpack_from("<QQII", trailer)
        if zlib.crc32(trailer[:20]) != crc or size != len(data):
            raise Bad("bad trailer")
        if self.version >= 3:
            self.sections = self.decode_sections(self.chunk(index_offset, 8))
            self.index = self.decode_column_index(self.sections["Index"], self.version)
        else:
            self.index = self.decode_index(self.chunk(index_offset, 7))

    def chunk_header(self, offset):
        """Section 3: (kind, CRC, stored size, raw size, header size) of the chunk at `offset`."""
        end = len(self.data) - 32
        if self.version < 7:
            if offset < 16 or offset + 24 > end:
                raise Bad("chunk offset %d out of range" % offset)
            crc, stored, raw = struct.unpack_from("<IQQ", self.data, offset + 4)
            return self.data[offset], crc, stored, raw, 24
        if offset < 16 or offset + 7 > end:
            raise Bad("chunk offset %d out of range" % offset)
        r = Reader(self.data[offset:min(end, offset + 25)])
        kind = r.byte()
        crc = struct.unpack("<I", r.take(4))[0]
        stored, raw = r.varint(), r.varint()
        return kind, crc, stored, raw, r.pos

    def chunk(self, offset, expected_kind):
        kind, crc, stored, raw, header = self.chunk_header(offset)
        body = self.data[offset + header:offset + header + stored]
        if kind != expected_kind or len(body) != stored or zlib.crc32(body) != crc:
            raise Bad("chunk at %d: wrong kind, size or CRC" % offset)
        if kind == 1:
            return body
        if kind == 8:  # version 6: the vocabulary is the preset dictionary
            content = lzma2_expand(body, vocabulary(self.doc_path) if self.version >= 6 else b"")
        else:
            content = zlib.decompress(body)
        if len(content) != raw:
            raise Bad("chunk at %d: inflates to %d bytes, not %d" % (offset, len(content), raw))
        return content

    # section 4
    @staticmethod
    def decode_index(content):
        r = Reader(content)
        entries = []
        for _ in range(r.varint()):
            e = {"kind": r.byte(), "offset": r.varint(), "stored": r.varint()}
            if e["kind"] not in INDEX_KINDS:
                raise Bad("index: unknown chunk kind %d" % e["kind"])
            if e["kind"] == 1:
                for key in ("location", "first_event", "events", "first_time", "last_time",
                            "min_time", "max_time"):
                    e[key] = r.varint()
            entries.append(e)
        return entries

    # section 3.2
    @staticmethod
    def decode_sections(content):
        r = Reader(content)
        sections = {name: r.take(r.varint()) for name in SECTIONS}
        if not r.at_end():
            raise Bad("bytes after the last section")
        return sections

    # section 4.2: every value a difference to one known before it
    @staticmethod
    def decode_column_index(content, version):
        r = Reader(content)
        entries, end, first_time, before = [], 16, 0, {}

        def plus(base):
            return (base + unzigzag(r.varint())) & MASK

        for _ in range(r.varint()):
            e = {"kind": 1, "location": r.varint()}
            e["offset"] = plus(end)
            e["stored"] = r.varint()
            e["first_event"] = plus(before.get(e["location"], 0))
            e["events"] = r.varint()
            e["first_time"] = plus(first_time)
            e["last_time"] = plus(e["first_time"])
            e["min_time"] = (e["first_time"] - unzigzag(r.varint())) & MASK
            e["max_time"] = plus(e["last_time"])
            end = e["offset"] + header_size(version, e["stored"]) + e["stored"]
            first_time = e["first_time"]
            before[e["location"]] = e["first_event"] + e["events"]
            entries.append(e)
        if not r.at_end():
            raise Bad("bytes after the last index entry")
        return entries

    def structure(self, kind):
        if self.version >= 3:
            return self.sections[KIND_NAMES[kind]]
        found = [e for e in self.index if e["kind"] == kind]
        if len(found) != 1:
            raise Bad("index: %d %s chunks" % (len(found), KIND_NAMES[kind]))
        return self.chunk(found[0]["offset"], kind)

    # section 10.7: the column dictionary, the Structure chunk's seventh section (None if
    # it is empty; versions 1 and 2 have none)
    def dictionary(self):
        if self.version < 3 or not self.sections["ColumnDictionary"]:
            return None
        return self.sections["ColumnDictionary"]


# ---------------------------------------------------------------- section 6: signatures
def structural(kind_name, field):
    name, ftype, _ = field
    if kind_name == "Generic" and name == "type":
        return True
    if ftype in ("u64", "i64", "f64"):
        return False
    if ftype == "u32":
        return name not in ("order", "generation", "unwind")
    return True  # u8, rank and every reference


def decode_signatures(content, event_kinds):
    r = Reader(content)
    sigs = []
    for _ in range(r.varint()):
        kind = r.varint()
        fields = [r.varint() for _ in range(r.varint())]
        attributes = [(r.varint(), r.byte()) for _ in range(r.varint())]
        sigs.append(Signature(kind, fields, attributes, event_kinds))
    if not r.at_end():
        raise Bad("bytes after the last signature")
    return sigs


class Signature:
    def __init__(self, kind, fields, attributes, event_kinds):
        self.kind, self.fields, self.attributes = kind, fields, attributes
        self.name, specs = event_kinds[kind]
        fixed = [f for f in specs if not f[2]]
        group = [f for f in specs if f[2]]
        repeats = 0
        if group:  # the repetition count is the last fixed field, structural
            fixed_structural = sum(structural(self.name, f) for f in fixed)
            repeats = fields[fixed_structural - 1]
        self.layout = fixed + group * repeats  # every field of the event, in order
        self.is_structural = [structural(self.name, f) for f in self.layout]
        if sum(self.is_structural) != len(fields):
            raise Bad("signature of %s with a wrong field count" % self.name)
        self.value_count = len(self.layout) - len(fields) + len(attributes)


# ---------------------------------------------------------------- section 7: nodes
CALL, LEAVES, SEQUENCE = 0, (1, 2, 3), 4


# section 7.1: version 4's nodes, column by column; event counts computed from the children
def decode_node_columns(content):
    r = Reader(content)
    nodes = [{"kind": r.byte()} for _ in range(r.varint())]
    for node in nodes:
        node["sig"] = r.optional_id()
    for node in nodes:
        node["leave"] = None
        if node["kind"] == CALL:
            code = r.varint()
            if code:
                node["leave"] = ((node["sig"] or 0) + unzigzag(code - 1)) & MASK
    for node in nodes:
        node["edges"] = [None] * r.varint()
    children = [[r.varint() for _ in node["edges"]] for node in nodes]
    repetitions = [[r.varint() + 1 for _ in node["edges"]] for node in nodes]
    for i, node in enumerate(nodes):
        node["edges"] = [(child, reps, r.byte()) for child, reps in zip(children[i], repetitions[i])]
        if any(child >= i for child, _, _ in node["edges"]):
            raise Bad("a child does not precede its parent")
        own = 1 if node["kind"] in LEAVES else 0
        if node["kind"] == CALL:
            own = 1 + (node["leave"] is not None)
        node["events"] = own + sum(nodes[c]["events"] * n for c, n, _ in node["edges"])
    if not r.at_end():
        raise Bad("bytes after the last node")
    return nodes


def decode_nodes(content):
    r = Reader(content)
    nodes = []
    for _ in range(r.varint()):
        node = {"kind": r.byte(), "sig": r.optional_id(), "leave": r.optional_id(),
                "events": r.varint()}
        node["edges"] = [(r.varint(), r.varint(), r.byte()) for _ in range(r.varint())]
        if any(child >= len(nodes) for child, _, _ in node["edges"]):
            raise Bad("a child does not precede its parent")
        nodes.append(node)
    if not r.at_end():
        raise Bad("bytes after the last node")
    return nodes


# ---------------------------------------------------------------- section 8: locations
def decode_annotations(r):
    return [(r.string(), r.take(r.varint())) for _ in range(r.varint())]


def decode_locations(content):
    r = Reader(content)
    locations = []
    for _ in range(r.varint()):
        locations.append({"id": r.varint(), "root": r.optional_id(), "events": r.varint(),
                          "annotations": decode_annotations(r)})
    if not r.at_end():
        raise Bad("bytes after the last location")
    return locations


# ---------------------------------------------------------------- section 9.1: expansion
def expand(nodes, node_id):
    node = nodes[node_id]
    if node["kind"] == CALL:
        yield node["sig"], ("enter", node["sig"])
    elif node["kind"] in LEAVES:
        yield node["sig"], ("node", node_id)
        return
    for child, repetitions, _type in node["edges"]:
        for _ in range(repetitions):
            yield from expand(nodes, child)
    if node["kind"] == CALL and node["leave"] is not None:
        yield node["leave"], ("node", node_id)


# ---------------------------------------------------------------- section 9.3: joining
def join(sig, values, location, defs):
    values = iter(values)
    structural_fields = iter(sig.fields)
    fields = [next(structural_fields) if s else next(values) for s in sig.is_structural]
    names = [f[0] for f in sig.layout]
    if "comm" in names:
        own = defs.own_rank(fields[names.index("comm")], location)
        if own is not None:
            for i, f in enumerate(sig.layout):
                if f[1] == "rank":
                    fields[i] = (unzigzag(fields[i]) + own) & MASK
    attributes = [(ref, atype, next(values)) for ref, atype in sig.attributes]
    return fields, attributes


# ---------------------------------------------------------------- printing as `mtf dump`
def ref_name(defs, ref_kind, value):
    if ref_kind == "string":
        return defs.string(value)
    if ref_kind == "region":
        found = defs.find("Region", value)
        return defs.string(found[0][1]) if found else b""
    kinds = {"comm": "Comm", "param": "Parameter", "group": "Group", "attribute": "Attribute"}
    if ref_kind in kinds:
        found = defs.find(kinds[ref_kind], value)
        if found and len(found[0]) > 1:
            return defs.string(found[0][1])
    return b""


def format_value(defs, name, ftype, value):
    if name == "self":
        return str(value)
    if ftype == "i64":
        return str(signed64(value))
    if ftype == "f64":
        return "%.17g" % struct.unpack("<d", struct.pack("<Q", value))[0]
    if ftype in ("u8", "u32", "u64", "rank", "any"):
        return str(value)
    if ftype != "loc" and value == UNDEFINED_REF:
        return "undef"
    name_bytes = ref_name(defs, ftype, value)
    return str(value) + ('("%s")' % name_bytes.decode("utf-8", "replace") if name_bytes else "")


def format_fields(defs, specs, fields):
    fixed = [f for f in specs if not f[2]]
    group = [f for f in specs if f[2]]
    out = ""
    for i, value in enumerate(fields):
        if i < len(fixed) or not group:
            spec = (fixed + group)[min(i, len(specs) - 1)]
        else:
            spec = group[(i - len(fixed)) % len(group)]
        out += " %s=%s" % (spec[0], format_value(defs, spec[0], spec[1], value))
    return out


def print_definitions(defs):
    print("# format " + defs.format.decode("utf-8", "replace"))
    print("ClockProperties resolution=%d offset=%d length=%d" % (defs.resolution, defs.offset,
                                                                 defs.length))
    for kind, fields, text in defs.records:
        name, specs = defs.kinds[kind]
        line = name + format_fields(defs, specs, fields)
        if name == "String":
            escaped = text.decode("utf-8", "replace").replace("\\", "\\\\").replace('"', '\\"')
            line += ' text="%s"' % escaped.replace("\n", "\\n")
        print(line)
    print("# events")


def main():
    path = sys.argv[1]
    doc = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_DOC
    event_kinds, def_kinds = kind_tables(doc)
    archive = Archive(open(path, "rb").read(), doc)
    defs = Definitions(archive.structure(2), def_kinds, archive.version, well_known_strings(doc))
    defs.rank_map()
    sigs = decode_signatures(archive.structure(3), event_kinds)
    nodes = (decode_node_columns if archive.version >= 4 else decode_nodes)(archive.structure(4))
    locations = decode_locations(archive.structure(5))
    decode_annotations(Reader(archive.structure(6)))
    dictionary = archive.dictionary()
    print_definitions(defs)
    for index, location in enumerate(locations):
        steps = expand(nodes, location["root"])
        chunks = [e for e in archive.index if e["kind"] == 1 and e["location"] == index]
        expected = 0
        for entry in chunks:
            if entry["first_event"] != expected:
                raise Bad("column chunks do not cover the events in order")
            expected += entry["events"]
            encoded = archive.chunk(entry["offset"], 1)
            for sig_id, time, values in decode_chunk(encoded, entry, steps, sigs, dictionary):
                sig = sigs[sig_id]
                fields, attributes = join(sig, values, location["id"], defs)
                line = "L%d %d %s" % (location["id"], time, sig.name)
                if fields:
                    line += format_fields(defs, event_kinds[sig.kind][1], fields)
                if attributes:
                    line += " |" + "".join(" attr%d:%d=%d" % a for a in attributes)
                print(line)
        if expected != location["events"]:
            raise Bad("columns hold %d events, the DAG %d" % (expected, location["events"]))


if __name__ == "__main__":
    try:
        main()
    except Bad as problem:
        sys.exit("mtf_spec_reader: %s" % problem)
