#!/usr/bin/env python3
"""Draws the sample images in this folder with the standard library only.

Each image is rendered at 4x4 supersampling and written as an 8-bit RGBA PNG. Run it from
anywhere: python3 Assets/images/make-images.py
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 120
SAMPLES = 4


def write_png(path, width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def render(shader, size=SIZE):
    """shader(x, y) -> (r, g, b, a) in 0..1 for x, y in 0..1."""
    rows = []
    for j in range(size):
        row = []
        for i in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) / size
                    y = (j + (sj + 0.5) / SAMPLES) / size
                    r, g, b, a = shader(x, y)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            n = SAMPLES * SAMPLES
            a = acc[3] / n
            if a > 0:
                color = [acc[k] / n / a for k in range(3)]
            else:
                color = [0, 0, 0]
            row += [round(c * 255) for c in color] + [round(a * 255)]
        rows.append(row)
    return rows


def mix(c1, c2, t):
    return tuple(c1[k] + (c2[k] - c1[k]) * t for k in range(3))


def rgb(hex_color):
    return tuple(int(hex_color[k:k + 2], 16) / 255 for k in (1, 3, 5))


def icon(top, bottom, glyph):
    def shader(x, y):
        base = mix(rgb(top), rgb(bottom), y)
        if glyph(x, y):
            return (1, 1, 1, 1)
        return base + (1,)
    return shader


def video(x, y):
    body = 0.2 <= x <= 0.62 and 0.33 <= y <= 0.67
    lens = x >= 0.62 and x <= 0.82 and abs(y - 0.5) <= (x - 0.6) * 0.9
    return body or lens


def photo(x, y):
    frame = 0.2 <= x <= 0.8 and 0.25 <= y <= 0.75 and not (0.25 < x < 0.75 and 0.3 < y < 0.7)
    sun = (x - 0.38) ** 2 + (y - 0.42) ** 2 <= 0.06 ** 2
    hill = 0.25 < x < 0.75 and y > 0.7 - 0.25 * math.sin((x - 0.25) * math.pi * 2) * 0.5 and y < 0.7
    return frame or sun or hill


def music(x, y):
    stem = 0.55 <= x <= 0.6 and 0.25 <= y <= 0.7
    flag = 0.55 <= x <= 0.75 and 0.25 <= y <= 0.25 + 0.08 + (x - 0.55) * 0.4
    head = ((x - 0.47) / 0.11) ** 2 + ((y - 0.7) / 0.08) ** 2 <= 1
    return stem or flag or head


def person(x, y):
    head = (x - 0.5) ** 2 + (y - 0.38) ** 2 <= 0.15 ** 2
    body = ((x - 0.5) / 0.3) ** 2 + ((y - 0.92) / 0.3) ** 2 <= 1
    return head or body


def placeholder(x, y):
    return False


IMAGES = {
    "video.png": icon("#5AC8FA", "#007AFF", video),
    "photo.png": icon("#FFD36E", "#FF9500", photo),
    "music.png": icon("#FF7AA8", "#FF2D55", music),
    "person.png": icon("#B8C2CC", "#8E9BA8", person),
    "placeholder.png": icon("#E4E6EA", "#D2D5DA", placeholder),
}

if __name__ == "__main__":
    for name, shader in IMAGES.items():
        write_png(os.path.join(HERE, name), SIZE, SIZE, render(shader))
        print("wrote", name)
