#!/usr/bin/env python3
"""Validates JUnit XML files against the JUnit schema CI systems read
(Tests/Fixtures/junit/junit.xsd), with xmlschema from PyPI (installed into .venv by
`bash scripts/setup.sh --tests`). The tests run it on what `rowkit check --junit` writes:

    .venv/bin/python scripts/check-junit.py junit.xml [more.xml ...]

Prints `valid FILE` for each valid file, and each problem (file, path, reason) otherwise;
exits 1 when any file is not valid.
"""
import sys
from pathlib import Path

import xmlschema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "Tests" / "Fixtures" / "junit" / "junit.xsd"


def main(files):
    if not files:
        print("usage: check-junit.py FILE...", file=sys.stderr)
        return 2
    schema = xmlschema.XMLSchema10(str(SCHEMA))
    failed = False
    for name in files:
        errors = list(schema.iter_errors(name))
        if errors:
            failed = True
            for error in errors:
                print(f"{name}: {error.path}: {error.reason}")
        else:
            print(f"valid {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
