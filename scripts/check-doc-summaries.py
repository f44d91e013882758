#!/usr/bin/env python3
"""Every public symbol of the documented libraries has a summary line of its own.

DocC shows a symbol without a doc comment as "No overview available", and a declaration that
implements a protocol requirement without a comment of its own shows the requirement's text,
which says what any conforming type does, not what this one does. This script reads the
symbol graphs of the modules and lists each public or open declaration written in the
package's source files whose doc comment (`///` or `/** */`) is missing or is not its own
(inherited from the requirement it implements); it prints `file:line: symbol` lines and the
count, and exits with 1 if there are any.

Symbols the compiler synthesizes (`==`, `hash(into:)`, `Codable`'s `init(from:)` and
`encode(to:)`, `allCases`, `rawValue`, protocol extensions' default implementations) and
symbols declared outside the package's source folders are not listed.

The symbol graphs come from, in this order: the folders given with `--symbol-graph-dir`;
the ones `swift package generate-documentation` extracted into the scratch folder (the
newest `extracted-symbols/<package>/<Module>` folder of `--scratch-path`), so that after the
DocC step nothing is built again; else `swift package dump-symbol-graph` with that scratch
folder (`--dump` forces this).

    python3 scripts/check-doc-summaries.py [--scratch-path .build] [--dump]
        [--package-path PACKAGE] [--module RowKit ...] [--symbol-graph-dir DIR ...]

`--package-path` defaults to this repository, `--scratch-path` is relative to it.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

DEFAULT_MODULES = ["RowKit", "RowKitGraphics", "RowKitSnapshot"]

# Extension blocks (`extension Array`) are containers, documented by their members.
SKIPPED_KINDS = {"swift.extension"}

# A line between a doc comment and its declaration: an attribute, a compiler directive, a
# blank line or an ordinary comment.
BETWEEN = re.compile(r"^\s*(@|#|//(?!/)|$)")


def newest_extracted_dirs(scratch, modules):
    """The newest folder `extracted-symbols/<package>/<module>` of the scratch folder, per
    module (what the DocC plugin asked SwiftPM for)."""
    found = {}
    for module in modules:
        candidates = [
            c
            for depth in (["*"], ["*", "*"])  # <triple>/ or <triple>/<configuration>/
            for c in glob.glob(os.path.join(scratch, *depth, "extracted-symbols", "*", module))
        ]
        written = {c: [os.path.getmtime(f) for f in glob.glob(os.path.join(c, "*.symbols.json"))] for c in candidates}
        written = {c: max(times) for c, times in written.items() if times}
        if not written:
            return None
        found[module] = max(written, key=written.get)
    return list(found.values())


def dump_symbol_graphs(package, scratch):
    command = [
        "swift", "package", "--package-path", package, "--scratch-path", scratch,
        "dump-symbol-graph", "--minimum-access-level", "public", "--skip-synthesized-members",
    ]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # NB: it exits with 1 when it cannot load the test targets' generated modules
    # (`RowKitPackageTests`), after writing every other module's graph; a module missing from
    # the folder is reported by the caller.
    written = re.findall(r"Files written to (.+)", result.stdout)
    if not written:
        sys.stderr.write(result.stdout)
        sys.exit(f"check-doc-summaries: {' '.join(command)} failed")
    return [written[-1].strip()]


def symbol_files(dirs, modules):
    """The symbol graph files of the modules: `RowKit.symbols.json` and the extension graphs
    `RowKit@Swift.symbols.json`."""
    files = []
    for directory in dirs:
        for module in modules:
            files += glob.glob(os.path.join(directory, f"{module}.symbols.json"))
            files += glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
    return sorted(set(files))


def uri_path(uri):
    return uri[len("file://"):] if uri.startswith("file://") else uri


class Sources:
    def __init__(self):
        self.cache = {}

    def lines(self, path):
        if path not in self.cache:
            try:
                with open(path, encoding="utf-8") as f:
                    self.cache[path] = f.read().split("\n")
            except OSError:
                self.cache[path] = []
        return self.cache[path]


def has_own_doc(symbol, path, line, sources):
    """Whether the symbol's doc comment is the one written right above its declaration
    (not one DocC inherits from a protocol requirement or from another module)."""
    doc = symbol.get("docComment")
    if not doc or not any(l.get("text", "").strip() for l in doc.get("lines", [])):
        return False
    if "uri" in doc and os.path.realpath(uri_path(doc["uri"])) != os.path.realpath(path):
        return False
    ranges = [l["range"] for l in doc["lines"] if "range" in l]
    if not ranges:
        return False  # inherited from another module (the standard library's, say)
    doc_end = max(r["end"]["line"] for r in ranges)  # 0-based, like the location's line
    if doc_end >= line:
        return False
    between = sources.lines(path)[doc_end + 1 : line]
    return all(BETWEEN.match(text) for text in between)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--package-path", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--scratch-path", default=".build")
    parser.add_argument("--module", action="append", dest="modules")
    parser.add_argument("--symbol-graph-dir", action="append", dest="dirs")
    parser.add_argument("--dump", action="store_true", help="run dump-symbol-graph even if "
                        "the DocC plugin's symbol graphs are there")
    args = parser.parse_args()
    modules = args.modules or DEFAULT_MODULES
    package = os.path.realpath(args.package_path)
    scratch = os.path.join(package, args.scratch_path)
    sources_root = os.path.join(package, "Sources") + os.sep

    dirs = args.dirs
    if not dirs and not args.dump:
        dirs = newest_extracted_dirs(scratch, modules)
    if not dirs:
        dirs = dump_symbol_graphs(package, scratch)
    files = symbol_files(dirs, modules)
    missing_modules = [m for m in modules
                       if not any(os.path.basename(f) == f"{m}.symbols.json" for f in files)]
    if missing_modules:
        sys.exit(f"check-doc-summaries: no symbol graph of {', '.join(missing_modules)} "
                 f"in {', '.join(dirs)}")

    sources = Sources()
    seen = set()
    missing = []
    for file in files:
        with open(file, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph.get("symbols", []):
            identifier = symbol["identifier"]["precise"]
            if identifier in seen:
                continue
            seen.add(identifier)
            if "::SYNTHESIZED::" in identifier or symbol["kind"]["identifier"] in SKIPPED_KINDS:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location")
            if not location:
                continue  # synthesized by the compiler
            path = os.path.realpath(uri_path(location["uri"]))
            if not path.startswith(os.path.realpath(sources_root)):
                continue
            line = location["position"]["line"]  # 0-based
            if has_own_doc(symbol, path, line, sources):
                continue
            title = ".".join(symbol.get("pathComponents") or [symbol["names"]["title"]])
            missing.append((os.path.relpath(path, package), line + 1, title))

    for path, line, title in sorted(missing):
        print(f"{path}:{line}: {title}")
    print(f"{len(missing)} public symbol(s) without a summary line of their own "
          f"({', '.join(modules)})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
