#!/usr/bin/env python3
"""The schema test: RowKit's JSON Schemas (Schemas/) against the files the decoders read.

1. Schemas/ is what `rowkit schema` writes (`rowkit schema --check Schemas`, with the rowkit
   that `swift build` made: build it first, as scripts/test.sh does), and each schema is a
   valid draft 2020-12 schema.
2. Every YAML and JSON file under Assets/ and Benchmarks/ (table documents, stylesheets, cell
   designs, told apart by their top-level keys as `rowkit check` and `catalog` do) is valid
   against its schema, and so is every layout record (`*.layout.json`) under Snapshots/.
3. Every bad-input fixture listed in Tests/Fixtures/bad-input/cases.json (each refused by the
   decoders for a structural reason, which the Swift tests check) is refused by its schema
   too, and at the key path the decoder names or the map that holds it. A fixture the schema
   cannot judge says why in `schemaCannotTell`, and must then be accepted by the schema, so
   that a schema that learns to refuse it gets the note removed.

Files are read as YAML 1.2 (the core schema, as YAML editors read them): `yes` and `on` stay
text, `1e19` is a number, and a date stays text. Run it with the test environment's Python:

    .venv/bin/python scripts/check-schemas.py

It prints one line per failure and exits 1 when anything failed.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "Fixtures" / "bad-input"


class CoreLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """PyYAML reads YAML 1.1 (and its pure-Python parser trips on some text libyaml reads, as Yams does); this loader resolves plain scalars by YAML 1.2's core schema."""


CoreLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     list("-+.0123456789")),
]:
    CoreLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


def construct_float(loader, node):
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if text == ".nan":
        return float("nan")
    return float(text)


CoreLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", construct_float)


def load(path):
    if path.suffix == ".json":
        return json.loads(path.read_text())
    return yaml.load(path.read_text(), Loader=CoreLoader)


def kind_of(value):
    """table-document, cell-design or stylesheet, by the top-level keys (as RowKit tells them apart)."""
    keys = value.keys() if isinstance(value, dict) else []
    if "sections" in keys or "items" in keys:
        return "table-document"
    if "body" in keys:
        return "cell-design"
    return "stylesheet"


def key_path(path):
    """A jsonschema path as RowKit writes key paths: sections[0].items[2].type."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def all_errors(errors):
    for error in errors:
        yield error
        yield from all_errors(error.context or [])


def parent(path):
    """`a.b[2].c` → `a.b[2]`; `a.b[2]` → `a.b`."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def schemas_as_written():
    """Failures of step 1: rowkit writes the schemas from its own Swift description of the
    formats (the bounds and keyword lists its loaders check with), so Schemas/ must be its
    output byte for byte."""
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True)
    rowkit = Path(bin_path.stdout.strip()) / "rowkit"
    if bin_path.returncode != 0 or not rowkit.is_file():
        return [f"no rowkit in `swift build --show-bin-path` ({rowkit}): build it first (swift build --product rowkit)"]
    check = subprocess.run([str(rowkit), "schema", "--check", "Schemas"], cwd=ROOT, capture_output=True, text=True)
    if check.returncode == 0:
        return []
    lines = [line.removeprefix("rowkit: ") for line in check.stderr.strip().splitlines()]
    files = [line for line in lines if not line.startswith("run ")]
    if check.returncode != 1 or not files:
        return [f"rowkit schema --check Schemas exited {check.returncode}: {' '.join(lines)}"]
    return [f"{line}; run `rowkit schema --output Schemas` and commit the result" for line in files]


def main():
    failures = []

    failures += schemas_as_written()

    schemas = {}
    for path in sorted((ROOT / "Schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        schemas[path.name.removesuffix(".schema.json")] = schema
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values())
    validators = {name: Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}

    # 2. The sample files.
    samples = sorted(
        path for folder in ("Assets", "Benchmarks") for path in (ROOT / folder).rglob("*")
        if path.suffix in (".yaml", ".yml", ".json"))
    for path in samples:
        value = load(path)
        kind = kind_of(value)
        for error in validators[kind].iter_errors(value):
            failures.append(f"{path.relative_to(ROOT)} ({kind}): {key_path(error.absolute_path) or '(top)'}: "
                            f"{error.message[:300]}")

    # 2b. The layout records beside the references.
    records = sorted((ROOT / "Snapshots").rglob("*.layout.json"))
    for path in records:
        for error in validators["layout-record"].iter_errors(json.loads(path.read_text())):
            failures.append(f"{path.relative_to(ROOT)} (layout-record): {key_path(error.absolute_path) or '(top)'}: "
                            f"{error.message[:300]}")

    # 3. The bad-input fixtures.
    cases = json.loads((FIXTURES / "cases.json").read_text())
    listed = {case["file"] for case in cases}
    on_disk = {str(path.relative_to(FIXTURES)) for path in FIXTURES.rglob("*") if path.is_file()} - {"cases.json"}
    for missing in sorted(on_disk - listed):
        failures.append(f"bad-input/{missing} is not listed in cases.json")
    refused = 0
    cannot_tell = []
    for case in cases:
        path = FIXTURES / case["file"]
        if not path.exists():
            failures.append(f"bad-input/{case['file']} is listed in cases.json but does not exist")
            continue
        kind = case["schema"]
        try:
            value = load(path)
        except (yaml.YAMLError, json.JSONDecodeError) as error:
            failures.append(f"bad-input/{case['file']} does not parse, so it tests no schema: {error}")
            continue
        errors = list(validators[kind].iter_errors(value))
        if "schemaCannotTell" in case:
            cannot_tell.append(f"{case['file']}: {case['schemaCannotTell']}")
            if errors:
                failures.append(f"bad-input/{case['file']}: the schema refuses it now "
                                f"({errors[0].message[:200]}); remove its schemaCannotTell note")
            continue
        if not errors:
            failures.append(f"bad-input/{case['file']} ({case['why']}): the decoder refuses it at "
                            f"'{case['keyPath']}', but {kind}.schema.json accepts it")
            continue
        # Where the schema refuses it: the decoder's key path, or the map that holds the key; a
        # case may name another place when the schema is more precise than the decoder.
        wanted = case.get("schemaKeyPath", case["keyPath"])
        places = {key_path(error.absolute_path) for error in all_errors(errors)}
        if wanted not in places and parent(wanted) not in places:
            failures.append(f"bad-input/{case['file']}: the decoder refuses '{wanted}', the schema only "
                            f"{sorted(places)}")
            continue
        refused += 1

    print(f"check-schemas: {len(samples)} sample files and {len(records)} layout records valid against their schemas; {refused} bad-input fixtures "
          f"refused by their schemas at the decoder's key path; {len(cannot_tell)} the schemas cannot judge:")
    for line in cannot_tell:
        print(f"  {line}")
    sys.stdout.flush()
    for line in failures:
        print(f"check-schemas: FAIL: {line}", file=sys.stderr)
    if failures:
        print(f"check-schemas: {len(failures)} failures", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
