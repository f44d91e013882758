"""Writes two RGB PNGs of WIDTH×HEIGHT pixels, A and B, for the memory benchmark: light rows
with a dark stripe every 97 rows, the same in both but for a 50×100 black block in B.

    python3 Benchmarks/memory/png_pair.py WIDTH HEIGHT A.png B.png
"""
import struct
import sys
import zlib


def write(path, width, height, row):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    compressor = zlib.compressobj(6)
    data = [compressor.compress(b"\x00" + row(y)) for y in range(height)]
    data.append(compressor.flush())
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        file.write(chunk(b"IDAT", b"".join(data)))
        file.write(chunk(b"IEND", b""))


def main():
    width, height = int(sys.argv[1]), int(sys.argv[2])
    light, stripe = bytes([200, 220, 240]) * width, bytes([30, 60, 90]) * width

    def first(y):
        return stripe if y % 97 < 3 else light

    def second(y):
        line = first(y)
        if height // 5 <= y < height // 5 + 100:
            left = 3 * (width // 2)
            line = line[:left] + bytes(3 * 50) + line[left + 3 * 50:]
        return line

    write(sys.argv[3], width, height, first)
    write(sys.argv[4], width, height, second)


main()
