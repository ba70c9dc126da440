#!/usr/bin/python3
"""A reader of MTF binary archives written from docs/mtf-format.md alone.

Usage: mtf_spec_reader.py ARCHIVE.mtf [DOC.md]

Decodes the archive following the document (section numbers in the comments) and prints
its definitions and events in the text form of `mtf dump`, so that the two can be
compared line for line. The kind tables (appendices A and B) are read from the document
itself. Standard library only.
"""

import re
import struct
import sys
import zlib

MASK = (1 << 64) - 1
UNDEFINED_REF = 0xFFFFFFFF


class Bad(Exception):
    pass


# ---------------------------------------------------------------- section 1: conventions
class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def varint(self):
        value, shift = 0, 0
        while True:
            if self.pos >= len(self.data) or shift > 63:
                raise Bad("varint runs past the end")
            b = self.data[self.pos]
            self.pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    def byte(self):
        return self.take(1)[0]

    def take(self, n):
        if self.pos + n > len(self.data):
            raise Bad("record runs past the end")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def string(self):
        return self.take(self.varint())

    def optional_id(self):
        v = self.varint()
        return None if v == 0 else v - 1

    def at_end(self):
        return self.pos == len(self.data)


def unzigzag(u):
    return (u >> 1) ^ -(u & 1)


def signed64(x):
    x &= MASK
    return x - (1 << 64) if x >> 63 else x


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


# ---------------------------------------------------------------- section 3: file layout
MAGIC = b"\x89MTF\r\n\x1a\n"
END_MAGIC = b"MTF-END\n"
KIND_NAMES = {1: "Columns", 2: "Definitions", 3: "Signatures", 4: "Nodes", 5: "Locations",
              6: "Annotations", 7: "Index"}


class Archive:
    def __init__(self, data):
        self.data = data
        if len(data) < 48 or data[:8] != MAGIC:
            raise Bad("not an MTF archive")
        self.version = struct.unpack_from("<I", data, 8)[0]
        if self.version not in (1, 2):
            raise Bad("archive version %d is not supported" % self.version)
        trailer = data[-32:]
        if trailer[24:] != END_MAGIC:
            raise Bad("end magic missing")
        index_offset, size, _version, crc = struct.unpack_from("<QQII", trailer)
        if zlib.crc32(trailer[:20]) != crc or size != len(data):
            raise Bad("bad trailer")
        self.index = self.decode_index(self.chunk(index_offset, 7))

    def chunk(self, offset, expected_kind):
        if offset < 16 or offset + 24 > len(self.data) - 32:
            raise Bad("chunk offset %d out of range" % offset)
        kind = self.data[offset]
        crc, stored, raw = struct.unpack_from("<IQQ", self.data, offset + 4)
        body = self.data[offset + 24:offset + 24 + stored]
        if kind != expected_kind or len(body) != stored or zlib.crc32(body) != crc:
            raise Bad("chunk at %d: wrong kind, size or CRC" % offset)
        if kind == 1:
            return body
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
            if e["kind"] not in KIND_NAMES:
                raise Bad("index: unknown chunk kind %d" % e["kind"])
            if e["kind"] == 1:
                for key in ("location", "first_event", "events", "first_time", "last_time",
                            "min_time", "max_time"):
                    e[key] = r.varint()
            entries.append(e)
        return entries

    def structure(self, kind):
        found = [e for e in self.index if e["kind"] == kind]
        if len(found) != 1:
            raise Bad("index: %d %s chunks" % (len(found), KIND_NAMES[kind]))
        return self.chunk(found[0]["offset"], kind)


# ---------------------------------------------------------------- section 5: definitions
class Definitions:
    def __init__(self, content, def_kinds):
        r = Reader(content)
        self.resolution, self.offset, self.length, self.realtime = (r.varint() for _ in range(4))
        self.format, self.creator, self.version = (r.string() for _ in range(3))
        self.properties = [(r.string(), r.string()) for _ in range(r.varint())]
        self.records = []
        for _ in range(r.varint()):
            kind = r.varint()
            fields = [r.varint() for _ in range(r.varint())]
            text = r.string()
            self.records.append((kind, fields, text))
        if not r.at_end():
            raise Bad("bytes after the last definition")
        self.kinds = def_kinds
        self.by_self = {}
        for kind, fields, text in self.records:
            name, specs = def_kinds[kind]
            if specs and specs[0][0] == "self" and fields:
                self.by_self[(name, fields[0])] = (fields, text)

    def find(self, kind_name, self_id):
        return self.by_self.get((kind_name, self_id))

    def string(self, ref):
        found = self.find("String", ref)
        return found[1] if found else b""

    def field(self, kind_name, self_id, field_name):
        found = self.find(kind_name, self_id)
        if not found:
            return None
        specs = self.kinds[[k[0] for k in self.kinds].index(kind_name)][1]
        names = [s[0] for s in specs]
        i = names.index(field_name)
        return found[0][i] if i < len(found[0]) else None

    def group_members(self, group_ref):
        found = self.find("Group", group_ref)
        return found[0][6:] if found else []

    # section 6: own ranks
    def rank_map(self):
        world = []
        for kind, fields, _ in self.records:
            if self.kinds[kind][0] == "Group" and fields[2] == 4 and fields[3] == 4:
                world = fields[6:]
        self.world_rank = {loc: i for i, loc in enumerate(world)}
        self.world_size = len(world)

    def own_rank(self, comm, location):
        world = self.world_rank.get(location)
        if world is None:
            return None
        group = self.field("Comm", comm, "group")
        if group is None or self.find("Group", group) is None:
            return None
        gtype = self.field("Group", group, "type")
        if gtype == 6:
            return 0
        if gtype != 5:
            return None
        for i, member in enumerate(self.group_members(group)):
            if member < self.world_size and member == world:
                return i
        return None


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


# ---------------------------------------------------------------- section 10: columns
def huffman_decode(coded, n):
    lengths = []
    for b in coded[:128]:
        lengths += [b & 15, b >> 4]
    if max(lengths) > 12:
        raise Bad("Huffman code length over 12")
    # Canonical codes as in DEFLATE: (length, value) order, first code per length.
    count = [0] * 13
    for l in lengths:
        if l:
            count[l] += 1
    next_code, code = [0] * 13, 0
    for l in range(1, 13):
        code = (code + count[l - 1]) << 1
        next_code[l] = code
    decode = {}
    for value in range(256):
        l = lengths[value]
        if l:
            decode[(l, next_code[l])] = value
            next_code[l] += 1
    stream = coded[128:]
    out, bit = bytearray(), 0
    total_bits = len(stream) * 8
    while len(out) < n:
        code, length = 0, 0
        while (length, code) not in decode:
            if bit >= total_bits or length >= 12:
                raise Bad("bit pattern that is no Huffman code")
            code = (code << 1) | ((stream[bit >> 3] >> (bit & 7)) & 1)  # MSB of the code first
            bit += 1
            length += 1
        out.append(decode[(length, code)])
    if (bit + 7) // 8 != len(stream) or (bit % 8 and stream[-1] >> (bit % 8)):
        raise Bad("Huffman stream does not end with its last code")
    return bytes(out)


def sparse_decode(coded, n):
    r = Reader(coded)
    out = bytearray(n)
    position = 0
    for _ in range(r.varint()):
        position += r.varint()
        value = r.byte()
        if position >= n or value == 0:
            raise Bad("corrupt sparse plane")
        out[position] = value
        position += 1
    if not r.at_end():
        raise Bad("bytes after the sparse plane's list")
    return bytes(out)


def inflate_columns(encoded):
    r = Reader(encoded)
    if encoded[0] == 0:  # coding 2: marker, coding byte
        r.byte()
        coding = r.byte()
        if coding != 2:
            raise Bad("unknown column coding %d" % coding)
    else:
        coding = 1
    size = r.varint()
    rest = encoded[r.pos:]
    payload = zlib.decompress(rest, -15) if coding == 2 else zlib.decompress(rest)
    if len(payload) != size:
        raise Bad("column payload of the wrong size")
    return coding, payload


def time_residuals(r, coding, n):
    planes = r.byte()
    if planes > 8:
        raise Bad("bad time plane count")
    codings, sizes = [0] * planes, [0] * planes
    if coding == 2:
        for p in range(planes):
            codings[p] = r.byte()
            if codings[p] not in (0, 1, 2):
                raise Bad("unknown time plane coding")
            if codings[p]:
                sizes[p] = r.varint()
    residuals = [0] * n
    for p in range(planes):
        if codings[p] == 0:
            plane = r.take(n)
        elif codings[p] == 1:
            plane = huffman_decode(r.take(sizes[p]), n)
        else:
            plane = sparse_decode(r.take(sizes[p]), n)
        for i in range(n):
            residuals[i] |= plane[i] << (8 * p)
    return residuals


class Predictor:  # section 10.4, one per context
    def __init__(self, value_count):
        self.h, self.seen = 0, False
        self.previous = [0] * value_count


def decode_chunk(encoded, entry, steps, sigs):
    """Yields (sig, time, values) for the chunk's events; `steps` yields (sig, context)."""
    coding, payload = inflate_columns(encoded)
    r = Reader(payload)
    previous_time = r.varint()
    n = r.varint()
    if n != entry["events"]:
        raise Bad("column chunk event count differs from the index")
    mode = r.byte()
    if mode not in (0, 1):
        raise Bad("unknown time prediction mode")
    residuals = time_residuals(r, coding, n)
    states = {}
    for i in range(n):
        sig, context = next(steps)
        state = states.setdefault(context, Predictor(sigs[sig].value_count))
        if mode == 0:
            predicted = state.h & MASK
        else:
            predicted = ((state.h + 8) >> 4) & MASK
        delta = (predicted + unzigzag(residuals[i])) & MASK
        d = signed64(delta)
        if mode == 0:
            state.h = d
        elif not state.seen:
            state.h = d * 16
        else:
            diff = d * 16 - state.h
            state.h += abs(diff) // 8 * (1 if diff >= 0 else -1)  # truncation toward zero
        state.seen = True
        previous_time = (previous_time + delta) & MASK
        values = []
        for j in range(sigs[sig].value_count):
            value = (state.previous[j] + unzigzag(r.varint())) & MASK
            state.previous[j] = value
            values.append(value)
        yield sig, previous_time, values
    if not r.at_end():
        raise Bad("column chunk holds more values than its events")


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
    doc = sys.argv[2] if len(sys.argv) > 2 else __file__.rsplit("/tests/", 1)[0] + \
        "/docs/mtf-format.md"
    event_kinds, def_kinds = kind_tables(doc)
    archive = Archive(open(path, "rb").read())
    defs = Definitions(archive.structure(2), def_kinds)
    defs.rank_map()
    sigs = decode_signatures(archive.structure(3), event_kinds)
    nodes = decode_nodes(archive.structure(4))
    locations = decode_locations(archive.structure(5))
    decode_annotations(Reader(archive.structure(6)))
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
            for sig_id, time, values in decode_chunk(encoded, entry, steps, sigs):
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
