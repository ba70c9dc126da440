"""Byte-level conventions of docs/mtf-format.md section 1, for mtf_spec_reader.py."""

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
