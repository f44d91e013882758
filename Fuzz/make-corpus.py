#!/usr/bin/env python3
"""Makes the fuzz harnesses' seed corpora under Fuzz/Corpus/<target>/ from the repository's
own files: the sample documents, stylesheets and designs of Assets/, the pixelmatch fixtures
of Tests/Fixtures/ (cropped small: a fuzzer learns as much from 24x24 pixels as from 512x256
and runs far faster), and the images of Assets/images. Run it again after changing them:

    python3 -m venv /tmp/corpus-venv && /tmp/corpus-venv/bin/pip install Pillow PyYAML
    /tmp/corpus-venv/bin/python Fuzz/make-corpus.py

It replaces Fuzz/Corpus/<target>/ for every target; each stays well under 100 KB.
The dictionary Fuzz/Dictionaries/yaml.dict is written too: every key and keyword the
document, stylesheet and design decoders accept, read from the sources."""

import io
import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Fuzz" / "Corpus"
PIXELMATCH = ROOT / "Tests" / "Fixtures" / "pixelmatch"


def reset(target):
    folder = CORPUS / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def write(folder, name, data):
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def load_yaml(path):
    try:
        return yaml.safe_load(path.read_text())
    except yaml.YAMLError:
        return None  # PyYAML is YAML 1.1; a few samples use 1.2 (RowKit reads them with Yams)


# Hand-written seeds: the hostile inputs of issue 11, and short documents that reach each
# kind of row, so the fuzzer starts next to the code that checks numbers.
DOCUMENTS = {
    "issue-padding.yaml": "stylesheet:\n  vars:\n    tableCellPadding: 1e308\nitems:\n  - type: text\n    text: Hi\n",
    "issue-row-height.yaml": "stylesheet:\n  vars:\n    tableRowHeight: 1e19\nitems:\n  - type: caption\n    text: Hi\n    caption: There\n",
    "issue-empty-stylesheet.yaml": "stylesheet: >-\nitems:\n  - type: text\n    text: Hi\n",
    "every-row.yaml": """table: { width: 320, scale: 1, style: grouped, rowHeight: auto, language: en }
sections:
  - header: Text
    footer: The end
    items:
      - { type: text, text: Plain, accessory: disclosure }
      - { type: link, text: A link }
      - { type: button, text: A button }
      - { type: longText, text: "A long text that wraps over several lines of the row" }
      - { type: grayText, text: Gray }
      - { type: summary, text: "3 items" }
      - { type: activity, text: Loading }
      - { type: checkmark, text: Checked, checked: true }
      - { type: caption, text: Value, caption: Key }
      - { type: rightCaption, text: Value, caption: Key }
      - { type: subtext, text: Value, caption: Sub }
      - { type: settings, text: On, caption: Wi-Fi }
      - { type: styledText, text: "<b>bold</b> <i>it</i> <u>u</u> <a href='x'>a</a> <span class='highlight'>s</span>" }
      - { type: subtitle, text: Title, subtitle: Sub, imageURL: bundle://images/person.png }
      - { type: message, title: Joe, caption: Subject, text: Body, timestamp: "2023-10-21T21:13:00Z" }
      - { type: image, text: Photo, imageURL: bundle://images/photo.png, imageStyle: rounded }
      - { type: rightImage, text: Photo, imageURL: bundle://images/music.png }
      - { type: moreButton, text: More, subtitle: "10 more" }
""",
}

MARKUP = [
    "<b>Bold</b>, <i>italic</i>, <u>underlined</u> and <a href=\"https://example.com\">a link</a>",
    "<strong>strong</strong> <em>em</em> <span class=\"highlight\">highlighted</span>",
    "<div>A block</div><p>A paragraph<br/>with a break</p>",
    "An image <img src=\"bundle://images/person.png\" width=\"16\" height=\"16\"/> inline",
    "Entities: &amp; &lt; &gt; &quot; &apos; &nbsp; &#x1F600; &#233;",
    "<span class=\"code\">code</span> and <b><i>nested</i></b>",
    "   Runs   of\n\n white\tspace   ",
]


def documents():
    yaml_folder = reset("document-yaml")
    json_folder = reset("document-json")
    sources = sorted((ROOT / "Assets" / "Samples").glob("*.yaml")) + [ROOT / "Assets" / "Styles" / "catalog.yaml"]
    for path in sources:
        write(yaml_folder, path.name, path.read_bytes())
        value = load_yaml(path)
        if value is not None:
            write(json_folder, path.stem + ".json", json.dumps(value, indent=1, default=str))
    for name, text in DOCUMENTS.items():
        write(yaml_folder, name, text)
        write(json_folder, Path(name).stem + ".json", json.dumps(yaml.safe_load(text), default=str))


def stylesheets():
    folder = reset("stylesheet")
    write(folder, "styles.yaml", (ROOT / "Assets" / "Designs" / "styles.yaml").read_bytes())
    catalog = load_yaml(ROOT / "Assets" / "Styles" / "catalog.yaml")["stylesheet"]
    photos = load_yaml(ROOT / "Assets" / "Samples" / "photos.yaml")["stylesheet"]
    write(folder, "photos.yaml", yaml.safe_dump(photos, sort_keys=False))
    # The catalog's styles, four to a file: the harness paints the first four a file defines.
    names = list(catalog["styles"])
    for start in range(0, len(names), 4):
        part = {"extends": "default", "vars": catalog["vars"],
                "styles": {name: catalog["styles"][name] for name in names[start:start + 4]}}
        write(folder, f"catalog-{start // 4:02}.yaml", yaml.safe_dump(part, sort_keys=False))
    write(folder, "issue-numbers.yaml",
          "vars:\n  tableCellPadding: 1e308\n  tableRowHeight: 1e19\n  tableFont: Inter 13\n"
          "styles:\n  big:\n    - shadow: { color: '#000', blur: 4, offset: [0, 1] }\n    - shape: { roundedRect: 8 }\n")


def designs():
    folder = reset("design")
    for path in sorted((ROOT / "Assets" / "Designs").glob("*.yaml")):
        if path.name != "styles.yaml":
            write(folder, path.name, path.read_bytes())
    write(folder, "issue-padding.yaml", "padding: 1e19\nbody:\n  label: { text: Hi }\n")


def markup():
    folder = reset("markup")
    for index, text in enumerate(MARKUP):
        write(folder, f"markup-{index}.txt", text)
    for path in [ROOT / "Assets" / "Samples" / "features.yaml", ROOT / "Assets" / "Styles" / "catalog.yaml"]:
        for match in re.finditer(r"type: styledText[^\n]*\n\s*text: (.*)", path.read_text()):
            text = match.group(1).strip()
            try:
                text = yaml.safe_load(text)
            except yaml.YAMLError:
                pass
            if isinstance(text, str):
                write(folder, f"{path.stem}-{match.start()}.txt", text)


def crops():
    """Small crops of the pixelmatch fixtures, from a region where each pair differs."""
    pairs = []
    for a, box in [("1", (200, 100)), ("2", (100, 100)), ("3", (200, 100)), ("4", (200, 200)), ("5", (100, 100))]:
        first = Image.open(PIXELMATCH / f"{a}a.png")
        second = Image.open(PIXELMATCH / f"{a}b.png")
        region = (box[0], box[1], box[0] + 24, box[1] + 24)
        pairs.append((a, first.crop(region), second.crop(region)))
    return pairs


def encode(image, fmt, **options):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def sixteen_bit_png():
    """A 4x4 16-bit RGBA PNG with a tRNS-free alpha ramp (Pillow does not write 16-bit RGBA)."""
    rows = b"".join(b"\x00" + b"".join(struct.pack(">HHHH", x * 16000, y * 16000, 30000, 65535 - x * 9000) for x in range(4))
                    for y in range(4))
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 16, 6, 0, 0, 0))
            + png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))


def interlaced_png(image):
    """An Adam7-interlaced 8-bit RGBA PNG (Pillow writes none)."""
    width, height = image.size
    pixels = image.tobytes()
    data = b""
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        for y in range(y0, height, dy):
            row = b"".join(pixels[(y * width + x) * 4:(y * width + x) * 4 + 4] for x in range(x0, width, dx))
            if row:
                data += b"\x00" + row
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 1))
            + png_chunk(b"IDAT", zlib.compress(data)) + png_chunk(b"IEND", b""))


def images():
    pairs = crops()
    png = reset("png")
    for path in sorted((ROOT / "Assets" / "images").glob("*.png")):
        write(png, path.name, path.read_bytes())
    a = pairs[0][1].convert("RGBA")
    write(png, "rgba.png", encode(a, "PNG"))
    write(png, "rgb.png", encode(a.convert("RGB"), "PNG"))
    write(png, "gray.png", encode(a.convert("L"), "PNG"))
    write(png, "gray-alpha.png", encode(a.convert("LA"), "PNG"))
    write(png, "palette.png", encode(pairs[1][1].convert("P"), "PNG"))
    write(png, "palette-trns.png", encode(a.convert("P"), "PNG", transparency=0))
    write(png, "bilevel.png", encode(a.convert("1"), "PNG"))
    write(png, "interlaced.png", interlaced_png(a.resize((9, 9))))
    write(png, "rgba16.png", sixteen_bit_png())
    gray16 = Image.frombytes("I;16", (4, 4), bytes(range(32)))
    write(png, "gray16.png", encode(gray16, "PNG"))

    jpeg = reset("jpeg")
    rgb = pairs[3][1].convert("RGB")
    write(jpeg, "baseline.jpg", encode(rgb, "JPEG", quality=80))
    write(jpeg, "progressive.jpg", encode(rgb, "JPEG", quality=60, progressive=True))
    write(jpeg, "gray.jpg", encode(rgb.convert("L"), "JPEG"))
    write(jpeg, "444.jpg", encode(rgb, "JPEG", subsampling=0))
    write(jpeg, "cmyk.jpg", encode(rgb.convert("CMYK"), "JPEG"))
    write(jpeg, "tiny.jpg", encode(rgb.resize((3, 2)), "JPEG"))

    webp = reset("webp")
    write(webp, "lossy.webp", encode(rgb, "WEBP", quality=60))
    write(webp, "lossless.webp", encode(a, "WEBP", lossless=True))
    write(webp, "lossy-alpha.webp", encode(a, "WEBP", quality=50))
    write(webp, "tiny.webp", encode(a.resize((2, 3)), "WEBP", lossless=True))

    compare = reset("compare")
    # Encoded pairs (flags 4 and 8: encoded files, draw the diff images), in PNG and mixed formats.
    for name, first, second in pairs:
        a_bytes = encode(first.convert("RGBA"), "PNG")
        b_bytes = encode(second.convert("RGBA"), "PNG")
        for flags, threshold in [(4 | 8, 0), (4 | 1 | 8, 26), (4 | 2, 0)]:
            header = bytes([flags, threshold, 0, 0]) + struct.pack(">Q", len(a_bytes))
            write(compare, f"pair-{name}-{flags}.bin", header + a_bytes + b_bytes)
    mixed_a = encode(pairs[0][1].convert("RGB"), "JPEG")
    mixed_b = encode(pairs[0][2].convert("RGBA"), "WEBP", lossless=True)
    write(compare, "pair-jpeg-webp.bin", bytes([4 | 8, 0, 0, 0]) + struct.pack(">Q", len(mixed_a)) + mixed_a + mixed_b)
    # Raw images: flags, threshold, regions, noise, then region numbers, knobs and sizes.
    pixels = pairs[2][1].convert("RGBA").resize((16, 16)).tobytes()
    write(compare, "raw-same-size.bin", bytes([8, 0, 0, 0x0F, 15, 15, 15, 15]) + pixels)
    write(compare, "raw-antialiasing.bin", bytes([1 | 8 | 32 | 128, 25, 0, 0x03]) + struct.pack(">H", 10) + bytes([4, 15, 15, 15, 15]) + pixels)
    write(compare, "raw-sizes.bin", bytes([8, 0, 0, 0xFF, 15, 7, 9, 15]) + pixels)
    region = struct.pack(">hhhh", 2, 2, 5, 5)
    write(compare, "raw-region.bin", bytes([8, 0, 1, 0xFF]) + region + bytes([15, 15, 15, 15]) + pixels)
    wide = b"".join(b"\x00" + struct.pack(">h", n) for n in (2, 2, 5, 5))
    write(compare, "raw-region-64.bin", bytes([8 | 16, 0, 1, 0xFF]) + wide + bytes([15, 15, 15, 15]) + pixels)


def dictionary():
    """Every quoted identifier the decoders compare keys and keywords against."""
    words = set()
    for folder in ["Documents", "Styles", "Items", "Layout"]:
        for path in (ROOT / "Sources" / "RowKit" / folder).glob("*.swift"):
            for word in re.findall(r'"([A-Za-z][A-Za-z0-9]{1,30})"', path.read_text()):
                words.add(word)
    lines = ["# Keys and keywords of RowKit's documents, stylesheets and designs (Fuzz/make-corpus.py)."]
    lines += [f'"{word}"' for word in sorted(words)]
    lines += ['"bundle://"', '"file://"', '"documents://"', '"cache://"', '"https://"', '": "', '"- "', '"{ "', '" }"',
              '"1e308"', '"1e19"', '"-1e19"', '".nan"', '".inf"', '"-.inf"', '"0x7fffffffffffffff"', '"&a"', '"*a"', '"<<: "']
    path = ROOT / "Fuzz" / "Dictionaries" / "yaml.dict"
    path.parent.mkdir(exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    documents()
    stylesheets()
    designs()
    markup()
    images()
    dictionary()
    for folder in sorted(CORPUS.iterdir()):
        files = list(folder.iterdir())
        print(f"{folder.name}: {len(files)} files, {sum(f.stat().st_size for f in files)} bytes")
