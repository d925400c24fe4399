#!/usr/bin/env python3
"""Check that the includes of solver/ follow the dependency order docs/architecture.md documents.

The order is read from docs/architecture.md, the paragraph that starts "Dependencies point one
way:", so that the page stays the one place it is written. Each clause (separated by ";") is either
a chain of backticked folders joined by arrows, "`cli`, `gui`, `python` → `run` → `output`", where
every folder of a link may include every folder of the next, or "`run` and `compile` read
`input`'s spec", where the folders before "read" may include the one after it. A folder may include
itself and, following the arrows, everything below it. The paragraph's last sentence names headers
that "include nothing of the engine"; those may not include solver/engine/ (directly).

Checks (exit 1 on any failure, listing file:line, the include and the rule): every
`#include "solver/<folder>/..."` in solver/ (a sub-folder such as output/vtk counts as its folder)
is allowed by the order; models/ includes nothing of solver/. Python standard library only.

Usage: python3 scripts/check_includes.py [--root DIR] [--list]
  --list   print the allowed dependencies read from the page, then check
"""
import argparse
import os
import re
import sys

ARCH = os.path.join("docs", "architecture.md")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"solver/([A-Za-z0-9_]+)/([^"]+)"')
NAME_RE = re.compile(r"`([A-Za-z0-9_./]+)`")


def dependency_paragraph(text):
    start = text.find("Dependencies point one way:")
    if start < 0:
        raise ValueError(f"{ARCH}: no paragraph starting 'Dependencies point one way:'")
    end = text.find("\n\n", start)
    return " ".join(text[start:end if end >= 0 else len(text)].split())


def parse_order(paragraph):
    """Direct edges folder -> set of folders, and the headers that include nothing of the engine."""
    body = paragraph[len("Dependencies point one way:"):]
    sentences = body.split(". ")
    edges = {}
    for clause in sentences[0].rstrip(".").split(";"):
        if "→" in clause:
            parts = [NAME_RE.findall(p) for p in clause.split("→")]
            for a, b in zip(parts, parts[1:]):
                for x in a:
                    edges.setdefault(x, set()).update(b)
        elif " read " in clause:
            before, after = clause.split(" read ", 1)
            targets = NAME_RE.findall(after)[:1]
            for x in NAME_RE.findall(before):
                edges.setdefault(x, set()).update(targets)
        elif clause.strip():
            raise ValueError(f"{ARCH}: cannot read the clause '{clause.strip()}'")
    no_engine = []
    for s in sentences[1:]:
        if "include nothing of the engine" in s:
            no_engine = [n for n in NAME_RE.findall(s.split("include nothing")[0]) if n.endswith(".h")]
    return edges, no_engine


def closure(edges):
    folders = set(edges) | {y for ys in edges.values() for y in ys}
    allowed = {}
    for f in folders:
        seen, todo = {f}, [f]
        while todo:
            for y in edges.get(todo.pop(), ()):
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        allowed[f] = seen
    return allowed


def sources(root, top):
    for d, dirs, names in os.walk(os.path.join(root, top)):
        dirs.sort()
        for n in sorted(names):
            if n.endswith((".h", ".cpp", ".hpp", ".cc")):
                yield os.path.relpath(os.path.join(d, n), root)


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for ln, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if m:
                yield ln, m.group(1), f"solver/{m.group(1)}/{m.group(2)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--list", action="store_true", help="print the allowed dependencies")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    try:
        with open(os.path.join(root, ARCH), encoding="utf-8") as f:
            edges, no_engine = parse_order(dependency_paragraph(f.read()))
    except (OSError, ValueError) as e:
        print(f"check_includes: {e}", file=sys.stderr)
        return 1
    allowed = closure(edges)
    if args.list:
        for f in sorted(allowed):
            print(f"{f}: {', '.join(sorted(allowed[f] - {f})) or '-'}")
        print("include nothing of the engine: " + ", ".join(no_engine))

    errors, checked = [], 0
    for path in sources(root, "solver"):
        folder = path.split(os.sep)[1]
        if folder not in allowed:
            if os.sep in path[len("solver") + 1:]:
                errors.append(f"{path}: folder solver/{folder}/ is not in the order of {ARCH}")
            continue
        header = "/".join(path.split(os.sep)[1:])
        for ln, target, inc in includes(root, path):
            checked += 1
            if target not in allowed[folder]:
                errors.append(f"{path}:{ln}: #include \"{inc}\": {folder}/ may not include {target}/ "
                              f"({ARCH}: {folder} may include {', '.join(sorted(allowed[folder]))})")
            elif header in no_engine and target == "engine":
                errors.append(f"{path}:{ln}: #include \"{inc}\": {header} includes nothing of the "
                              f"engine ({ARCH})")
    for path in sources(root, "models"):
        for ln, target, inc in includes(root, path):
            checked += 1
            errors.append(f"{path}:{ln}: #include \"{inc}\": models/ includes nothing of solver/")
    for h in no_engine:
        if not os.path.isfile(os.path.join(root, "solver", h)):
            errors.append(f"{ARCH}: {h} (include nothing of the engine) is not a file under solver/")

    for e in errors:
        print(e)
    if errors:
        print(f"check_includes: {len(errors)} include(s) against the dependency order", file=sys.stderr)
        return 1
    print(f"check_includes: {checked} includes of solver/ follow the order of {ARCH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
