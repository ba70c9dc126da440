"""Value columns of an MTF archive (docs/mtf-format.md section 10), for mtf_spec_reader.py."""

import math
import zlib

try:  # Debian: python3-zstandard; needed for codings 3 to 5 only
    import zstandard
except ImportError:
    zstandard = None

from mtf_spec_common import MASK, Bad, Reader, signed64, unzigzag
from mtf_spec_range import Bit, MixedBit, RangeDecoder, Residuals, bucket


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


def inflate_columns(encoded, dictionary=None):
    """Section 10.1: (coding, payload) of a column chunk's stored bytes."""
    r = Reader(encoded)
    if encoded[0] == 0:  # codings 2 to 7: marker, coding byte
        r.byte()
        coding = r.byte()
        if coding not in (2, 3, 4, 5, 6, 7):
            raise Bad("unknown column coding %d" % coding)
        if coding >= 6:  # sections 10.10, 10.11: the payload as it is, range coded inside
            return coding, encoded[2:]
    else:
        coding = 1
    with_dictionary = False
    if coding >= 3:
        flags = r.byte()
        if flags > 1:
            raise Bad("unknown column chunk flags %d" % flags)
        with_dictionary = flags == 1
        if with_dictionary and dictionary is None:
            raise Bad("column chunk needs the archive's dictionary, which it has not")
    size = r.varint()
    rest = encoded[r.pos:]
    if coding >= 3:
        payload = zstd_frame(rest, size, dictionary if with_dictionary else None)
    elif coding == 2:
        payload = zlib.decompress(rest, -15)
    else:
        payload = zlib.decompress(rest)
    if len(payload) != size:
        raise Bad("column payload of the wrong size")
    return coding, payload


def zstd_frame(data, size, dictionary):
    """Exactly one zstd frame (RFC 8878) making up all of `data`, at most `size` bytes."""
    if zstandard is None:
        raise Bad("column codings 3 to 5 need zstd: install python3-zstandard")
    if dictionary is not None:
        d = zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(dictionary))
    else:
        d = zstandard.ZstdDecompressor()
    stream = d.decompressobj()
    try:
        payload = stream.decompress(data)
    except zstandard.ZstdError as problem:
        raise Bad("column data does not decompress: %s" % problem)
    if not stream.eof or stream.unused_data:
        raise Bad("column data is not exactly one zstd frame")
    return payload


def time_residuals(r, coding, n):
    planes = r.byte()
    if planes > 8:
        raise Bad("bad time plane count")
    codings, sizes = [0] * planes, [0] * planes
    if coding >= 2:  # codings 2 and 3
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


class Predictor:  # sections 10.4 and 10.6, one per context
    def __init__(self, value_count):
        self.h, self.seen = 0, False
        self.previous = [0] * value_count  # coding 1 and 2
        self.slots = [Slot() for _ in range(value_count)]  # coding 3
        self.cost_context, self.cost_register = 0, 0  # codings 3 and 4
        self.time_length = 0  # coding 7: bit length of the context's last time residual
        self.slot_numbers = None  # section 10.8: numbered at the first event with values


class Slot:  # section 10.6: the models of one value slot (codings 3 and 4)
    def __init__(self):
        self.last, self.step, self.offset = 0, 0, 0
        self.costs = [0, 0, 0, 0, 0]

    def predictions(self, time):
        # 0 Previous, 1 TimeOffset, 2 Linear, 3 TwoBack, 4 Zero (coding 4 only)
        return [self.last, (time + self.offset) & MASK, (self.last + self.step) & MASK,
                (self.last - self.step) & MASK, 0]

    def best(self, coding):
        costs = self.costs if coding >= 4 else self.costs[:4]
        return costs.index(min(costs))  # ties: the lowest model number

    def learn(self, value, time):
        for m, predicted in enumerate(self.predictions(time)):
            self.costs[m] = decayed(self.costs[m], miss_bits(value, predicted))
        self.step = (value - self.last) & MASK
        self.last = value
        self.offset = (value - time) & MASK


def miss_bits(actual, predicted):
    """Bits of zigzag(actual - predicted): 0 for a perfect prediction."""
    d = signed64(actual - predicted)
    return (d << 1).bit_length() if d >= 0 else ((-d << 1) - 1).bit_length()


def decayed(cost, bits):
    return cost - (cost >> 2) + 4 * bits


class Register:  # section 10.6: the time register of a chunk (coding 3)
    def __init__(self):
        self.value, self.set = 0, False


class Grain:  # section 10.9: the GCD of the chunk's deltas so far (coding 5)
    def __init__(self, coding):
        self.unit = 0 if coding >= 5 else 1  # 1 never rounds

    def round(self, predicted):
        if self.unit <= 1 or self.unit > 1 << 62:
            return predicted
        x = signed64(predicted)
        rounded = (abs(x) + self.unit // 2) // self.unit * self.unit
        return (-rounded if x < 0 else rounded) & MASK

    def learn(self, delta):
        self.unit = math.gcd(self.unit, abs(signed64(delta)))


def next_delta(state, mode, residual, coding, register, previous_time, grain):
    """Section 10.4 (10.6 for codings 3 to 5, 10.9 for coding 5): the event's delta;
    updates the context."""
    if mode == 0:
        from_context = state.h & MASK
    else:
        from_context = ((state.h + 8) >> 4) & MASK
    predicted = from_context
    if coding >= 3:
        from_register = (register.value - previous_time) & MASK
        if register.set and state.cost_register < state.cost_context:
            predicted = from_register
    delta = (grain.round(predicted) + residual) & MASK
    if coding >= 3 and register.set:  # costs are weighed only once the register is set
        state.cost_context = decayed(state.cost_context, miss_bits(delta, from_context))
        state.cost_register = decayed(state.cost_register, miss_bits(delta, from_register))
    d = signed64(delta)
    if mode == 0:
        state.h = d
    elif not state.seen:
        state.h = d * 16
    else:
        diff = d * 16 - state.h
        state.h += abs(diff) // 8 * (1 if diff >= 0 else -1)  # truncation toward zero
    state.seen = True
    grain.learn(delta)
    return delta


class ValueStreams:  # section 10.8: where each slot's residuals are read
    def __init__(self, payload, r, coding, ranged=None):
        end = len(payload)
        self.own = {}  # slot number -> Reader of its own stream (codings 4, 5)
        self.units = {}  # slot number -> unit of its own stream (coding 5, section 10.9)
        self.shared_unit = 1
        self.slots = 0  # slots numbered so far in the chunk
        self.ranged = ranged  # codings 6, 7: the chunk's range decoder (sections 10.10, 10.11)
        self.coding = coding
        self.lengths = {}  # coding 7: slot number -> bit length of its last residual
        if coding < 4:
            self.shared = Reader(payload[r.pos:])
            return
        table = []
        slot = 0
        count, self.shared_unit = self.scaled(r, coding)
        for _ in range(count):
            gap, unit = self.scaled(r, coding)
            slot += gap
            table.append((slot, r.varint() if coding < 6 else 0))
            self.units[slot] = unit
            slot += 1
        if coding >= 6:  # one model per stream, the shared one first
            kind = MixedBit if coding == 7 else Bit
            self.models = {s: Residuals(kind) for s, _ in table}
            self.shared_model = Residuals(kind)
            return
        own_bytes = sum(size for _, size in table)
        if own_bytes > end - r.pos:
            raise Bad("value streams run past the end of the column data")
        self.shared = Reader(payload[r.pos:end - own_bytes])
        at = end - own_bytes
        for slot, size in table:
            self.own[slot] = Reader(payload[at:at + size])
            at += size

    @staticmethod
    def scaled(r, coding):
        """Section 10.9: (n, unit) of varint(2 n + flag) [varint(unit)]; coding 4: (n, 1)."""
        n = r.varint()
        if coding < 5:
            return n, 1
        if n & 1 == 0:
            return n >> 1, 1
        unit = r.varint()
        if unit < 2:
            raise Bad("value stream unit below 2")
        return n >> 1, unit

    def residual(self, slot):
        """The slot's next residual (signed), times its stream's unit."""
        unit = self.units[slot] if slot in self.units else self.shared_unit
        if self.ranged is not None:
            model = self.models.get(slot, self.shared_model)
            if self.coding == 6:
                return unzigzag(model.decode(self.ranged)) * unit
            # Section 10.11.2: the tree of the slot's previous residual's bit length.
            z = model.decode(self.ranged, bucket(self.lengths.get(slot, 0)))
            self.lengths[slot] = z.bit_length()
            return unzigzag(z) * unit
        return unzigzag(self.reader(slot).varint()) * unit

    def number(self, count):
        """Numbers the `count` slots of a context seen with values for the first time."""
        first = self.slots
        self.slots += count
        return list(range(first, first + count))

    def reader(self, slot):
        return self.own.get(slot, self.shared)

    def at_end(self):
        if self.ranged is not None:
            return self.ranged.ended_well()
        return self.shared.at_end() and all(r.at_end() for r in self.own.values())


def next_values(state, count, streams, coding, register, time):
    """Sections 10.5 (codings 1, 2), 10.6 (codings 3, 4) and 10.8 (coding 4): the event's
    `count` values."""
    if count and state.slot_numbers is None:
        state.slot_numbers = streams.number(count)
    values = []
    for j in range(count):
        residual = streams.residual(state.slot_numbers[j])
        if coding < 3:
            value = (state.previous[j] + residual) & MASK
            state.previous[j] = value
        else:
            slot = state.slots[j]
            model = slot.best(coding)
            value = (slot.predictions(time)[model] + residual) & MASK
            if model == 1:  # TimeOffset: the value is a time, the register keeps it
                register.value, register.set = value, True
            slot.learn(value, time)
        values.append(value)
    return values


def decode_chunk(encoded, entry, steps, sigs, dictionary=None):
    """Yields (sig, time, values) for the chunk's events; `steps` yields (sig, context)."""
    coding, payload = inflate_columns(encoded, dictionary)
    r = Reader(payload)
    previous_time = r.varint()
    n = r.varint()
    if n != entry["events"]:
        raise Bad("column chunk event count differs from the index")
    mode = r.byte()
    time_unit = 1
    if coding >= 5 and mode & 2:  # section 10.9: a time unit follows
        mode &= 1
        time_unit = r.varint()
        if time_unit < 2:
            raise Bad("time unit below 2")
    if mode not in (0, 1):
        raise Bad("unknown time prediction mode")
    residuals = None  # coding 7: each event's time residual comes before its values
    if coding >= 6:  # sections 10.10, 10.11: the table, then the range coded residuals
        streams = ValueStreams(payload, r, coding)
        streams.ranged = RangeDecoder(payload[r.pos:])
        times = Residuals(MixedBit) if coding == 7 else Residuals()
        if coding == 6:  # every time residual first
            residuals = [times.decode(streams.ranged) for _ in range(n)]
    else:
        residuals = time_residuals(r, coding, n)
        streams = ValueStreams(payload, r, coding)
    states = {}
    register = Register()
    grain = Grain(coding)
    for i in range(n):
        sig, context = next(steps)
        state = states.setdefault(context, Predictor(sigs[sig].value_count))
        if residuals is None:  # coding 7: the tree of the context's previous time residual
            z = times.decode(streams.ranged, bucket(state.time_length))
            state.time_length = z.bit_length()
        else:
            z = residuals[i]
        residual = (unzigzag(z) * time_unit) & MASK
        delta = next_delta(state, mode, residual, coding, register, previous_time, grain)
        previous_time = (previous_time + delta) & MASK
        values = next_values(state, sigs[sig].value_count, streams, coding, register,
                             previous_time)
        yield sig, previous_time, values
    if not streams.at_end():
        raise Bad("column chunk holds more values than its events")
