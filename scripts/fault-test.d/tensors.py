#!/usr/bin/env python3
"""Rewrite one array or metadata key of a safetensors file (stdlib only),
for the training cases of scripts/fault-test (fault-test.d/train.sh).

    tensors.py IN OUT ARRAY=VALUE   every element of ARRAY (f32 or u32) set to VALUE
    tensors.py IN OUT ARRAY[K]=VALUE   element K only
    tensors.py IN OUT meta:KEY=VALUE   a metadata entry

VALUE is a number, nan, inf or -inf. The layout: 8 bytes of little-endian
header length, the JSON header, the arrays' bytes.
"""
import json
import re
import struct
import sys


def main():
    src, dst, edit = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(src, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    data = bytearray(raw[8 + n :])
    if edit.startswith("meta:"):
        key, value = edit[5:].split("=", 1)
        header.setdefault("__metadata__", {})[key] = value
    else:
        m = re.fullmatch(r"([^\[=]+)(?:\[(\d+)\])?=(.+)", edit)
        name, index, value = m.group(1), m.group(2), m.group(3)
        t = header[name]
        fmt = {"F32": "<f", "U32": "<I"}[t["dtype"]]
        v = float(value) if t["dtype"] == "F32" else int(value)
        lo, hi = t["data_offsets"]
        indices = [int(index)] if index is not None else range((hi - lo) // 4)
        for k in indices:
            struct.pack_into(fmt, data, lo + 4 * k, v)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(dst, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(data))


if __name__ == "__main__":
    main()
