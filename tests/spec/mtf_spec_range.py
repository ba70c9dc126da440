"""Sections 10.10 and 10.11: the range coder and residual models of column codings 6 and
7, for mtf_spec_columns.py."""

from mtf_spec_common import Bad

# Section 10.10.1: the share of the way to the bit's side an update takes, in 1/65536,
# by the number of bits the probability has seen (at most 15).
SHARE = [32768, 21845, 16384, 13107, 10922, 9362, 8192, 6553, 5461, 4681, 4096, 3276,
         2730, 2340, 2048, 2048]


class Bit:
    """An adaptive probability of 0, in 1/4096."""

    def __init__(self):
        self.p, self.seen = 2048, 0

    def update(self, bit):
        target = 0 if bit else 4096
        self.p += ((target - self.p) * SHARE[self.seen]) >> 16  # floor division
        self.p = min(max(self.p, 31), 4065)
        self.seen = min(self.seen + 1, 15)


class MixedBit:
    """Section 10.11.1 (coding 7): the mean of a fast and a slow estimate, in 1/65536."""

    def __init__(self):
        self.fast, self.slow, self.seen = 32768, 32768, 0

    @property
    def p(self):
        return min(max((self.fast + self.slow) >> 5, 31), 4065)

    def update(self, bit):
        target = 0 if bit else 65535
        self.fast += ((target - self.fast) * (65536 // (min(self.seen, 14) + 2))) >> 16
        self.slow += ((target - self.slow) * (65536 // (self.seen + 2))) >> 16
        self.seen = min(self.seen + 1, 126)


class RangeDecoder:  # section 10.10.2
    def __init__(self, data):
        self.data, self.pos = data, 0
        self.range, self.code = 0xFFFFFFFF, 0
        for _ in range(4):
            self.code = (self.code << 8) | self.next_byte()

    def next_byte(self):
        b = self.data[self.pos] if self.pos < len(self.data) else 0  # zeros past the end
        self.pos += 1
        return b

    def normalize(self):
        while self.range < 1 << 24:
            self.range <<= 8
            self.code = (self.code << 8) | self.next_byte()

    def bit(self, model):
        bound = (self.range >> 12) * model.p
        if self.code < bound:
            self.range, value = bound, 0
        else:
            self.code -= bound
            self.range -= bound
            value = 1
        model.update(value)
        self.normalize()
        return value

    def direct(self, count):
        value = 0
        for _ in range(count):
            self.range >>= 1
            one = 1 if self.code >= self.range else 0
            self.code -= self.range * one
            value = (value << 1) | one
            self.normalize()
        return value

    def ended_well(self):
        """Every byte read, at most 4 zeros past them, and the code inside the range."""
        return len(self.data) <= self.pos <= len(self.data) + 4 and self.code < self.range


def bucket(length):
    if length < 4:
        return length
    if length < 6:
        return 4
    if length < 9:
        return 5
    return 6 if length < 14 else 7


class Residuals:  # section 10.10.3: the model of one stream of zigzagged residuals
    def __init__(self, bit_kind=Bit):
        self.bits = {}  # ("tree", bucket, node) or ("mantissa", length, index) -> bit
        self.bit_kind = bit_kind
        self.previous = 0

    def bit(self, rc, *key):
        return rc.bit(self.bits.setdefault(key, self.bit_kind()))

    def decode(self, rc, b=None):
        """Coding 6: the tree of the previous residual's bucket; coding 7 (10.11.2): the
        tree `b` the caller chose."""
        if b is None:
            b = bucket(self.previous)
        node = 1
        for _ in range(7):
            node = 2 * node + self.bit(rc, "tree", b, node)
        n = node - 128
        if n > 64:
            raise Bad("bad residual length in range coded values")
        self.previous = n
        if n < 2:
            return n
        first = self.bit(rc, "mantissa", n, 0)
        value = 2 | first
        if n == 2:
            return value
        value = 2 * value | self.bit(rc, "mantissa", n, 1 + first)
        return (value << (n - 3)) | rc.direct(n - 3)
