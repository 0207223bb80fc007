#!/usr/bin/env python3
"""Reads a .lifetrace file and prints it as canonical JSON Lines, as `lifetrace dump` does.

Written from Schemas/lifetrace-format.md and Schemas/events.json alone, as proof that the specification is
complete; the header's members are checked against the types Schemas/trace-event.schema.json gives them, as
every lifetrace reader checks them. Needs the `zstandard` package (pip install zstandard).

Usage: scripts/lifetrace_read.py FILE > out.jsonl
Exit status: 0 success (a warning on stderr for a truncated file), 2 damaged or unsupported input.
"""
import json
import pathlib
import struct
import sys

import zstandard

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "Schemas"
SCHEMA = json.loads((SCHEMAS / "events.json").read_text())
HEADER_MEMBERS = json.loads((SCHEMAS / "trace-event.schema.json").read_text())["$defs"]["header"]["properties"]
KINDS = {e["tag"]: e for e in SCHEMA["events"]}
FIELD_BITS = {f["name"]: f["bit"] for f in SCHEMA["fields"]}
KNOWN_MINOR = SCHEMA["version"]["minor"]
MAX_CONTENT = 16 << 20
PHASES = ["active", "inactive", "background"]


class Damage(Exception):
    pass


def header_problem(key, value):
    """Why value cannot be the header member key, as the schema types it (one line naming it), or None."""
    member = HEADER_MEMBERS.get(key)
    if member is None:
        return None
    if "enum" in member:
        names = member["enum"]
        if isinstance(value, str) and value in names:
            return None
        return '"%s" must be %s' % (key, names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])
    kind = member.get("type")
    if kind == "string":
        return None if isinstance(value, str) else '"%s" must be a string' % key
    if kind == "boolean":
        return None if isinstance(value, bool) else '"%s" must be true or false' % key
    if kind == "integer":
        minimum = member.get("minimum")
        if isinstance(value, int) and not isinstance(value, bool) and (minimum is None or value >= minimum):
            return None
        return '"%s" must be an integer%s' % (key, "" if minimum is None else " >= %d" % minimum)
    if kind == "array" and member.get("items", {}).get("type") == "string":
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return None
        return '"%s" must be an array of strings' % key
    return '"%s": the schema gives it a type this reader does not know' % key


class Cursor:
    def __init__(self, data, pos=0, end=None):
        self.data, self.pos, self.end = data, pos, len(data) if end is None else end

    def byte(self):
        if self.pos >= self.end:
            raise Damage("unexpected end of data")
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n):
        if n < 0 or self.pos + n > self.end:
            raise Damage("%d bytes run past the end" % n)
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def varint(self):
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if value >= 1 << 64:
                    raise Damage("varint overflows 64 bits")
                return value
            shift += 7
            if shift > 63:
                raise Damage("varint longer than 10 bytes")

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def string_index(self, strings):
        i = self.varint()
        if i >= len(strings):
            raise Damage("string index out of range")
        return strings[i]

    def at_end(self):
        return self.pos == self.end


class SplitColumn:
    def __init__(self, cursor, count, plane_sizes):
        self.lengths = Cursor(cursor.data, cursor.pos, cursor.pos + count)
        cursor.take(count)
        self.planes = []
        for size in plane_sizes:
            self.planes.append(Cursor(cursor.data, cursor.pos, cursor.pos + size))
            cursor.take(size)

    def next(self):
        length = self.lengths.byte()
        if length > 8:
            raise Damage("integer length above 8")
        value = 0
        for b in range(length):
            value |= self.planes[b].byte() << (8 * b)
        return value

    def exhausted(self):
        return self.lengths.at_end() and all(p.at_end() for p in self.planes)


def decode_block(content, minor, not_before):
    c = Cursor(content)
    if c.byte() != 0x01:
        raise Damage("unknown block type")
    first_t = c.varint()
    if first_t < not_before:
        raise Damage("block starts before the previous block's end")
    n = c.varint()
    if n > min(len(content) // 3, 1 << 18):
        raise Damage("event count too large")
    strings = []
    for _ in range(c.varint()):
        raw = c.take(c.varint())
        try:
            strings.append(bytes(raw).decode("utf-8"))
        except UnicodeDecodeError:
            raise Damage("string is not valid UTF-8")
    presence_size = c.varint()
    m = c.varint()
    delta_planes = [c.varint() for _ in range(8)]
    dur_planes = [c.varint() for _ in range(8)]
    fields_size = c.varint()
    kinds = c.take(n)
    presence = Cursor(content, c.pos, c.pos + presence_size)
    c.take(presence_size)
    deltas = SplitColumn(c, n, delta_planes)
    durs = SplitColumn(c, m, dur_planes)
    fields = Cursor(content, c.pos, c.pos + fields_size)
    c.take(fields_size)
    if not c.at_end():
        raise Damage("bytes after the last column")
    events, t, skipped = [], first_t, 0
    for i in range(n):
        t += deltas.next()
        if t >= 1 << 63:
            raise Damage("timestamp overflows")
        bits = presence.varint()
        if bits >> 9:
            raise Damage("unknown field bits")
        ev = {"t": t}
        scene = fields.string_index(strings) if bits & 1 else None
        dur = durs.next() if bits & 2 else None
        if dur is not None and t + dur >= 1 << 63:
            raise Damage("duration ends past the 64-bit range")
        task = fields.zigzag() if bits & 4 else None
        name = fields.string_index(strings) if bits & 8 else None
        phase = None
        if bits & 16:
            p = fields.byte()
            if p > 2:
                raise Damage("unknown scene phase")
            phase = PHASES[p]
        reason = fields.string_index(strings) if bits & 32 else None
        pid = fields.zigzag() if bits & 64 else None
        label = fields.string_index(strings) if bits & 128 else None
        attrs = None
        if bits & 256:
            attrs = {}
            for _ in range(fields.varint()):
                key = fields.string_index(strings)
                if key in attrs:
                    raise Damage("duplicate attribute")
                kind = fields.byte()
                if kind == 0:
                    attrs[key] = fields.string_index(strings)
                elif kind == 1:
                    attrs[key] = fields.zigzag()
                elif kind == 2:
                    attrs[key] = struct.unpack("<d", bytes(fields.take(8)))[0]
                elif kind in (3, 4):
                    attrs[key] = kind == 4
                else:
                    raise Damage("unknown attribute type")
        spec = KINDS.get(kinds[i])
        if spec is None:
            if minor <= KNOWN_MINOR:
                raise Damage("unknown event kind tag %d" % kinds[i])
            skipped += 1
            continue
        present = {k for k, b in FIELD_BITS.items() if bits & (1 << b)}
        if not set(spec["required"]) <= present:
            raise Damage("%s lacks a required field" % spec["name"])
        if spec["name"] == "custom":
            ev["ev"] = "custom." + label
        elif label is not None:
            raise Damage("only custom events carry a label")
        else:
            ev["ev"] = spec["name"]
        for key, value in (("scene", scene), ("dur", dur), ("task", task), ("name", name), ("phase", phase),
                           ("reason", reason), ("pid", pid), ("attrs", attrs)):
            if value is not None:
                ev[key] = value
        events.append(ev)
    if not (presence.at_end() and fields.at_end() and deltas.exhausted() and durs.exhausted()):
        raise Damage("columns hold more data than the events use")
    return events, t, skipped


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def frame_end(data, pos):
    """The end of the zstd frame at pos, walking its header and block headers (RFC 8878 section 3.1.1);
    None if the data ends first. Raises Damage for a reserved bit or block type, a dictionary, or a block
    larger than the frame allows: at most 128 KiB, and at most the window (the content size of a
    single-segment frame)."""
    if len(data) - pos < 5:
        return None
    descriptor = data[pos + 4]
    fcs_flag, single, checksum, dict_flag = descriptor >> 6, descriptor & 0x20, descriptor & 0x04, descriptor & 3
    if descriptor & 0x08 or dict_flag:
        raise Damage("zstd: reserved bit or dictionary in the frame header")
    fcs_size = [1 if single else 0, 2, 4, 8][fcs_flag]
    p = pos + 5
    window = 0
    if not single:
        if len(data) <= p:
            return None
        w = data[p]
        base = 1 << (10 + (w >> 3))
        window = base + (base // 8) * (w & 7)
        p += 1
    if len(data) < p + fcs_size:
        return None
    if single:
        window = int.from_bytes(data[p:p + fcs_size], "little") + (256 if fcs_size == 2 else 0)
    p += fcs_size
    limit = min(window, 128 << 10)
    while True:
        if len(data) < p + 3:
            return None
        header = int.from_bytes(data[p:p + 3], "little")
        kind, size = (header >> 1) & 3, header >> 3
        if kind == 3:
            raise Damage("zstd: block of the reserved type 3")
        if size > limit:
            raise Damage("zstd: block of %d bytes is larger than the %d bytes a block of this frame may hold" % (size, limit))
        p += 3 + (1 if kind == 1 else size)
        if header & 1:
            break
    p += 4 if checksum else 0
    return p if p <= len(data) else None


def read(path, out):
    data = open(path, "rb").read()
    pos, frame, minor, last_t, count, skipped = 0, 0, None, 0, 0, 0
    while pos < len(data):
        if len(data) - pos < 4:
            break
        magic = struct.unpack_from("<I", data, pos)[0]
        if magic & 0xFFFFFFF0 == 0x184D2A50:
            if len(data) - pos < 8:
                break
            size = struct.unpack_from("<I", data, pos + 4)[0]
            if size > (64 << 20 if magic == 0x184D2A51 else 1 << 20):
                raise Damage("byte %d (frame %d): skippable frame too large" % (pos, frame))
            if pos + 8 + size > len(data):
                break
            payload = data[pos + 8:pos + 8 + size]
            if frame == 0:
                if magic != 0x184D2A50 or payload[:4] != b"LTRC":
                    raise Damage("byte 0 (frame 0): not a lifetrace trace")
                major, minor = payload[4], payload[5]
                if major > SCHEMA["version"]["major"]:
                    raise Damage("byte 12 (frame 0): written in format version %d.%d" % (major, minor))
                if len(payload) > 8:
                    header = json.loads(payload[8:].decode("utf-8"))
                    if not isinstance(header, dict):
                        raise Damage("byte 8 (frame 0): the header is not an object")
                    for key, value in header.items():
                        problem = header_problem(key, value)
                        if problem:
                            raise Damage("byte 8 (frame 0): " + problem)
                    out.write(dumps(header) + "\n")
            elif magic == 0x184D2A50:
                raise Damage("byte %d (frame %d): a second header frame" % (pos, frame))
            pos += 8 + size
        elif magic == 0xFD2FB528 and frame > 0:
            try:
                params = zstandard.get_frame_parameters(data[pos:pos + 18])
            except zstandard.ZstdError as error:
                if len(data) - pos < 18:
                    break  # truncated inside the frame header
                raise Damage("byte %d (frame %d): zstd: %s" % (pos, frame, error))
            if params.content_size == zstandard.CONTENTSIZE_UNKNOWN or params.content_size > MAX_CONTENT:
                raise Damage("byte %d (frame %d): bad declared content size" % (pos, frame))
            try:
                end = frame_end(data, pos)
            except Damage as error:
                raise Damage("byte %d (frame %d): %s" % (pos, frame, error))
            if end is None:
                break  # truncated
            obj = zstandard.ZstdDecompressor().decompressobj()
            try:
                content = obj.decompress(data[pos:end])
            except zstandard.ZstdError as error:
                raise Damage("byte %d (frame %d): zstd: %s" % (pos, frame, error))
            if not obj.eof or obj.unused_data:
                raise Damage("byte %d (frame %d): zstd: the frame's blocks do not add up to its size" % (pos, frame))
            try:
                events, last_t, skip = decode_block(content, minor, last_t)
            except Damage as error:
                raise Damage("byte %d (frame %d): %s" % (pos, frame, error))
            for ev in events:
                out.write(dumps(ev) + "\n")
            count += len(events)
            skipped += skip
            pos = end
        else:
            raise Damage("byte %d (frame %d): not a zstd frame" % (pos, frame))
        frame += 1
    if pos < len(data):
        print("%s: truncated at byte %d: %d events recovered" % (path, len(data), count), file=sys.stderr)
    if skipped:
        print("%s: skipped %d events of unknown kinds" % (path, skipped), file=sys.stderr)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        read(sys.argv[1], sys.stdout)
    except (Damage, OSError, ValueError) as error:
        print("%s: %s" % (sys.argv[1], error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
