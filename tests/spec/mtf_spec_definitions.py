"""Definitions of an MTF archive (docs/mtf-format.md section 5), for mtf_spec_reader.py."""

import re

from mtf_spec_common import MASK, Bad, Reader, unzigzag

# appendix C: the number of well-known strings of version 4
WELL_KNOWN_V4 = 408

# ---------------------------------------------------------------- section 5: definitions
# section 5.3: version 4's texts, in columns, derived or literal; then the properties
def texts_v4(r, kinds, fields, def_kinds, well_known, version=4):
    n = len(kinds)
    by_self = {}
    for i in range(n):
        if kinds[i] == 0 and fields[i]:
            by_self.setdefault(fields[i][0], i)

    def string_fields(kind):
        return [f for f, (_, ftype, repeated) in enumerate(def_kinds[kind][1])
                if ftype == "string" and not repeated]

    owner = {}
    for i in range(n):
        if kinds[i] != 0:
            for f in string_fields(kinds[i]):
                if f < len(fields[i]) and fields[i][f] in by_self:
                    owner.setdefault(by_self[fields[i][f]], (i, f))

    def column(i):
        if kinds[i] != 0:
            return (2,)
        if i not in owner:
            return (1,)
        return (0, kinds[owner[i][0]], owner[i][1])

    order = sorted(range(n), key=lambda i: (column(i), i))
    tags = [r.varint() for _ in range(n)]
    if any(tag > (3 if version >= 5 else 2) for tag in tags):
        raise Bad("unknown definition text tag")
    derived_fields = [r.varint() for tag in tags if tag == 1]
    known, previous = [], -1
    for _ in range(tags.count(2)):
        previous = previous + 1 + unzigzag(r.varint())
        if not 0 <= previous < len(well_known):
            raise Bad("no well-known string %d" % previous)
        known.append(well_known[previous])
    known = iter(known)
    affixes, current = [], None
    for position, i in enumerate(order):
        if column(i) != current:
            current, previous_prefix, previous_suffix = column(i), [], []
        if tags[position] == 1:
            prefix, previous_prefix = number_template(r, previous_prefix)
            suffix, previous_suffix = number_template(r, previous_suffix)
            affixes.append((prefix, suffix))
    texts, k, current, previous = [None] * n, 0, None, None
    for position, i in enumerate(order):
        if column(i) != current:
            current, previous = column(i), None
        before, previous = previous, i
        if tags[position] == 0:
            texts[i] = r.string()
            continue
        if tags[position] == 3:  # version 5: numbered
            if before is None:
                raise Bad("numbered text without a text before it in its column")
            texts[i] = renumbered(r, texts[before])
            continue
        if tags[position] == 2:
            texts[i] = next(known)
            continue
        field, (prefix, suffix) = derived_fields[k], affixes[k]
        k += 1
        record = owner[i][0] if i in owner else None
        if (record is None or field not in string_fields(kinds[record])
                or field >= len(fields[record]) or fields[record][field] not in by_self
                or texts[by_self[fields[record][field]]] is None
                or by_self[fields[record][field]] == i):
            raise Bad("derived text names no string decoded before it")
        texts[i] = prefix + texts[by_self[fields[record][field]]] + suffix
    properties = []
    for _ in range(r.varint()):
        key, value, previous = r.string(), b"", -1
        for _ in range(r.varint()):
            value += r.string()
            previous = previous + 1 + unzigzag(r.varint())
            if not 0 <= previous < n + len(well_known):
                raise Bad("property piece refers to no text")
            value += texts[order[previous]] if previous < n else well_known[previous - n]
        properties.append((key, value + r.string()))
    return texts, properties


# section 5.4: the previous text of the column with each of its numbers changed
def renumbered(r, previous):
    parts, numbers = split_numbers(previous)
    text = parts[0]
    for j, number in enumerate(numbers):
        text += str((number + unzigzag(r.varint())) & MASK).encode() + parts[j + 1]
    return text


# runs of 1 to 18 digits that do not start with a 0 (unless the run is 0 alone)
def split_numbers(text):
    parts, numbers, start = [], [], 0
    for m in re.finditer(rb"[0-9]+", text):
        run = m.group(0)
        if len(run) <= 18 and (len(run) == 1 or run[:1] != b"0"):
            parts.append(text[start:m.start()])
            numbers.append(int(run))
            start = m.end()
    parts.append(text[start:])
    return parts, numbers


# a text cut at its numbers, each number predicted from the column's previous template
def number_template(r, previous):
    count = r.varint()
    parts = [r.string() for _ in range(count + 1)]
    numbers, text = [], parts[0]
    for j in range(count):
        predicted = previous[j] + 1 if j < len(previous) else 0
        numbers.append((predicted + unzigzag(r.varint())) & MASK)
        text += str(numbers[j]).encode() + parts[j + 1]
    return text, numbers


class Definitions:
    def __init__(self, content, def_kinds, version, well_known=()):
        r = Reader(content)
        self.resolution, self.offset, self.length, self.realtime = (r.varint() for _ in range(4))
        self.format, self.creator, self.version = (r.string() for _ in range(3))
        if version <= 3:
            self.properties = [(r.string(), r.string()) for _ in range(r.varint())]
        if version == 3:
            self.records = self.records_v3(r, b"".join(value for _, value in self.properties))
        elif version >= 4:
            kinds, fields = self.record_columns(r)
            table = well_known if version >= 5 else well_known[:WELL_KNOWN_V4]
            texts, self.properties = texts_v4(r, kinds, fields, def_kinds, table, version)
            self.records = list(zip(kinds, fields, texts))
        else:
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

    # section 5.2: kinds, then per kind its field counts and field columns, then the texts
    @staticmethod
    def record_columns(r):
        kinds = [r.varint() for _ in range(r.varint())]
        fields = [None] * len(kinds)
        for kind in sorted(set(kinds)):
            mine = [i for i, k in enumerate(kinds) if k == kind]
            for i in mine:
                fields[i] = [0] * r.varint()
            for f in range(max(len(fields[i]) for i in mine)):
                previous = 0
                for i in mine:
                    if f < len(fields[i]):
                        previous = (previous + unzigzag(r.varint())) & MASK
                        fields[i][f] = previous
        return kinds, fields

    @staticmethod
    def records_v3(r, property_text):
        kinds, fields = Definitions.record_columns(r)
        texts, previous_start, previous_end = [], 0, 0
        for _ in kinds:
            tag = r.varint()
            if tag == 0:
                texts.append(r.string())
                continue
            if tag != 1:
                raise Bad("unknown definition text tag %d" % tag)
            start = (previous_start + unzigzag(r.varint())) & MASK
            end = (previous_end + unzigzag(r.varint())) & MASK
            if start > end or end > len(property_text):
                raise Bad("definition text refers outside the properties")
            texts.append(property_text[start:end])
            previous_start, previous_end = start, end
        return list(zip(kinds, fields, texts))

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
