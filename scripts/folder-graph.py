#!/usr/bin/env python3
"""Prints which folder of a Swift target uses which, from type references, and fails if
the folders' dependencies form a cycle.

    python3 scripts/folder-graph.py [Sources/RowKit]

A folder uses another when one of its files names a top-level type (class, struct, enum,
protocol, actor or typealias) declared in the other. Comments and string literals are ignored.
Prints one line per folder with the folders it uses and, for each, the types that make the
edge; then the folders in an order where each uses only folders before it, or the cycles.
"""
import os
import re
import sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/RowKit"
# Top-level declarations only: a nested type is named through its outer type.
declaration = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|fileprivate|private|package|open|final|indirect)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)", re.M)
identifier = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")


def strip(source):
    """The source without comments and string literals (multi-line ones included)."""
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r"/\*(?:.|\n)*?\*/", " ", source)
    source = re.sub(r"//[^\n]*", " ", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


files = defaultdict(list)
for directory, _, names in os.walk(root):
    for name in sorted(names):
        if name.endswith(".swift"):
            relative = os.path.relpath(os.path.join(directory, name), root)
            folder = relative.split(os.sep)[0] if os.sep in relative else "."
            with open(os.path.join(directory, name), encoding="utf-8") as handle:
                files[folder].append(strip(handle.read()))

declared = {}
for folder, sources in files.items():
    for source in sources:
        for name in declaration.findall(source):
            declared.setdefault(name, folder)

uses = defaultdict(lambda: defaultdict(set))
for folder, sources in files.items():
    for source in sources:
        for name in set(identifier.findall(source)):
            owner = declared.get(name)
            if owner and owner != folder:
                uses[folder][owner].add(name)

folders = sorted(files)
for folder in folders:
    edges = uses[folder]
    listed = "; ".join(f"{other} ({', '.join(sorted(types)[:4])}{', …' if len(types) > 4 else ''})" for other, types in sorted(edges.items()))
    print(f"{folder:12} uses {listed or 'nothing'}")

# Tarjan's strongly connected components: any with two or more folders is a cycle.
index, low, stack, on_stack, components = {}, {}, [], set(), []
counter = [0]


def visit(node):
    index[node] = low[node] = counter[0]
    counter[0] += 1
    stack.append(node)
    on_stack.add(node)
    for other in uses[node]:
        if other not in index:
            visit(other)
            low[node] = min(low[node], low[other])
        elif other in on_stack:
            low[node] = min(low[node], index[other])
    if low[node] == index[node]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        components.append(component)


for folder in folders:
    if folder not in index:
        visit(folder)
cycles = [sorted(c) for c in components if len(c) > 1]
print()
if cycles:
    for cycle in cycles:
        print("CYCLE: " + " ⇄ ".join(cycle))
        for a in cycle:
            for b in cycle:
                if b in uses[a]:
                    print(f"  {a} → {b}: {', '.join(sorted(uses[a][b]))}")
    sys.exit(1)
# Tarjan emits components dependencies first: that order is the layering, bottom up.
print("no cycle; bottom to top: " + " → ".join(c[0] for c in components))
