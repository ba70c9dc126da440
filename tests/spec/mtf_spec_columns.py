"""Value columns of an MTF archive (docs/mtf-format.md section 10), for mtf_spec_reader.py."""

import zlib

from mtf_spec_common import MASK, Bad, Reader, signed64, unzigzag


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
