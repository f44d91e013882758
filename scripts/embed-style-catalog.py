#!/usr/bin/env python3
"""Copies Assets/Styles/catalog.yaml into the Swift source that `rowkit catalog --styles`
renders, so the installed binary needs no files. Run after editing the YAML; a test fails
while the two differ."""
import os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
yaml = open(os.path.join(root, "Assets/Styles/catalog.yaml")).read()
assert '"""#' not in yaml
swift = (
    "// The style catalog document. `Assets/Styles/catalog.yaml` is the same text, so users can\n"
    "// render and edit it; scripts/embed-style-catalog.py copies it here, and a test keeps the\n"
    "// two identical.\n\n"
    "extension StyleCatalog {\n"
    '  static let document = #"""\n' + yaml + '\n"""#\n'
    "}\n"
)
open(os.path.join(root, "Sources/RowKit/Catalogs/StyleCatalog+Document.swift"), "w").write(swift)
