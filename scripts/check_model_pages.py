#!/usr/bin/env python3
"""Check that every component model has a documented, validated page (docs/models/).

The project holds that every component has a page in docs/models/ with its purpose, equations,
sign convention, parameters, assumptions and limits, validation and sources
(docs/models/README.md). This script checks what can be checked mechanically:

1. every source file in models/ (``models/<name>.h`` or ``.cpp``) is named in the code column of
   the index table of docs/models/README.md, so a reader finds the page for any model file;
2. every page the index lists exists, and every page in docs/models/ is listed;
3. every page has the sections ``## Purpose``, ``## Assumptions`` (and limitations),
   ``## Validation`` and ``## References`` (a heading that starts with the word);
4. the validation section names at least one test file (``tests/.../*_test.cpp`` or
   ``tests/...*.py``) and every test file it names exists.

Run from anywhere: ``scripts/check_model_pages.py --root <repo>``; exits 1 with one line per
problem, naming the page (CTest ``docs.model_pages``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

INDEX_ROW = re.compile(r"^\|\s*\[(?P<page>[^\]]+\.md)\]\((?P<link>[^)]+)\)\s*\|(?P<what>[^|]*)\|(?P<code>.*)\|\s*$")
CODE_REF = re.compile(r"models/(?P<name>[A-Za-z0-9_]+)(?:\.\{(?P<exts>[a-z,]+)\}|\.(?P<ext>h|cpp))")
TEST_REF = re.compile(r"tests/[A-Za-z0-9_/.-]+?(?:_test\.cpp|\.py|\.sh)")


def index_rows(readme: Path) -> list[tuple[str, str]]:
    rows = []
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = INDEX_ROW.match(line)
        if m:
            rows.append((m.group("link").strip(), m.group("code")))
    return rows


def section(text: str, title: str) -> str | None:
    """The body of the first level-2 section whose heading starts with `title`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("## ") and line[3:].strip().lower().startswith(title.lower()):
            body = []
            for rest in lines[i + 1 :]:
                if rest.startswith("## "):
                    break
                body.append(rest)
            return "\n".join(body)
    return None


def check(root: Path) -> list[str]:
    problems: list[str] = []
    pages_dir = root / "docs" / "models"
    readme = pages_dir / "README.md"
    rows = index_rows(readme)
    if not rows:
        return [f"{readme}: no index table rows found"]

    listed = {link for link, _ in rows}
    # the README's own extra pages (named in its prose) count as listed
    prose_pages = set(re.findall(r"\(([a-z_]+\.md)\)", readme.read_text(encoding="utf-8")))
    on_disk = {p.name for p in pages_dir.glob("*.md") if p.name != "README.md"}
    for page in sorted(listed - on_disk):
        problems.append(f"{readme}: lists {page}, which does not exist")
    for page in sorted(on_disk - listed - prose_pages):
        problems.append(f"{readme}: does not list docs/models/{page}")

    named: set[str] = set()
    for _, code in rows:
        for m in CODE_REF.finditer(code):
            named.add(m.group("name"))
    for src in sorted((root / "models").glob("*.[hc]*")):
        if src.suffix not in (".h", ".cpp"):
            continue
        if src.stem not in named:
            problems.append(f"{readme}: models/{src.name} is not named by any page of the index table")

    for page in sorted(on_disk):
        path = pages_dir / page
        text = path.read_text(encoding="utf-8")
        if section(text, "Purpose") is None:
            problems.append(f"{path}: no '## Purpose' section")
        if section(text, "Assumptions") is None:
            problems.append(f"{path}: no '## Assumptions and limitations' section")
        validation = section(text, "Validation")
        if validation is None:
            problems.append(f"{path}: no '## Validation' section")
        else:
            tests = set(TEST_REF.findall(validation))
            # a page may name its tests in the header lines above Purpose
            tests |= set(TEST_REF.findall(text.split("## ", 1)[0]))
            if not tests:
                problems.append(f"{path}: the Validation section names no test file (tests/.../*_test.cpp)")
            for t in sorted(tests):
                if not (root / t).exists():
                    problems.append(f"{path}: names {t}, which does not exist")
        if section(text, "References") is None:
            problems.append(f"{path}: no '## References' section")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = ap.parse_args()
    problems = check(args.root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in docs/models", file=sys.stderr)
        return 1
    print("docs/models: every model file has a page; every page has purpose, validation with tests, references")
    return 0


if __name__ == "__main__":
    sys.exit(main())
