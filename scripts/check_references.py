#!/usr/bin/env python3
"""Check that every source key cited in the repository resolves to an entry of docs/references.md.

A citation is a bracket group that starts with a key: [K45], [K86, K88], [K72–K74], [WL2][WL5],
[K4 fit], [K30, K28 (secondary source)]. Keys are K<n>, WL<n>, P<n>, F<n> and T<n> (n without a
leading zero, optionally one lower-case letter: P15b); see docs/conventions.md ("Sources"). A group
may run over a line end ("[K23,\\n//   K24]"). Not citations: groups right after an identifier, a
closing bracket, a backtick or "=" (code such as `x[1]`, quoted examples), and YAML flow sequences
outside comments and strings (`racks: [F10, F11]`); rack names with a leading zero or a hyphen
(K01, H1-K10) never match.

Checks (exit 1 on any failure, listing file:line and key):
  * every cited key has an entry in docs/references.md ("### [KEY] title" heading);
  * every entry has a non-empty Title (its heading) and a "Year:" line with a four-digit year,
    and a "URL:" line (a URL/DOI, or the words "URL not confirmed");
  * no entry is defined twice.
  * every file (docs, data, code, tests, scripts; not the CHANGELOG) cites a source by its key
    alone: none names the maintainers' notes outside the repository by file (physics.md,
    workloads.md, plant.md, fabric-memory-variation.md, landscape.md, toolchain.md, anchors.md,
    ".../shared/docs/..."), which a reader cannot open. The repository's own page
    docs/models/plant.md, and links to it, are not such a
    mention.
Entries that no file cites are reported as warnings (exit 0), or as failures with --strict.

Files scanned: git-tracked (or, outside git, all) *.md *.yaml *.yml *.cpp *.h *.py *.sh *.txt *.json
under --root, except docs/references.md and this script. Python standard library only.

Usage: python3 scripts/check_references.py [--root DIR] [--strict] [--list]
  --list   print every cited key with its number of citations, then check
"""
import argparse
import os
import re
import subprocess
import sys

EXTS = (".md", ".yaml", ".yml", ".cpp", ".h", ".py", ".sh", ".txt", ".json")
REFS = os.path.join("docs", "references.md")
SELF = os.path.join("scripts", "check_references.py")  # its examples are not citations
SKIP_DIRS = {".git", "build", "shared"}

KEY = r"(?:WL|K|P|F|T)[1-9][0-9]*[a-z]?"
KEY_RE = re.compile(r"^(" + KEY + r")(?![A-Za-z0-9_-])")
RANGE_RE = re.compile(r"^(" + KEY + r")\s*[–-]\s*(" + KEY + r")(?![A-Za-z0-9_-])")
# "[" not preceded by an identifier, a closing bracket, a backtick or an assignment "="
OPEN_RE = re.compile(r"(?<![A-Za-z0-9_`\]])(?<!=\s)(?<!=)\[(?=\s*" + KEY + r"(?![A-Za-z0-9_-]))")
# in YAML data (outside comments and quoted strings) "key: [F01, F02]" is a flow sequence of names
YAML_FLOW_RE = re.compile(r":\s*$")
# continuation of a group left open at the end of the previous line: optional comment marker
CONT_RE = re.compile(r"^\s*(?://+|#+|\*|--)?\s*")
ENTRY_RE = re.compile(r"^###\s+\[(" + KEY + r")\]\s*(.*?)\s*$")
# a note outside the repository named by file: "physics.md 7", "workloads.md §2", "plant.md";
# not the repository's own docs/models/plant.md ("models/plant.md", "[plant.md](plant.md)")
OUTSIDE_RE = re.compile(r"shared/docs/|(?<![A-Za-z0-9_/\[.-])(?<!\]\()"
                        r"(?:physics|workloads|plant|fabric-memory-variation|landscape|toolchain|"
                        r"anchors)\.md\b")


def cites_outside(rel):
    """Files that must cite by key alone: every scanned file but the CHANGELOG (its history may
    say what an old comment named)."""
    return rel.replace(os.sep, "/") != "CHANGELOG.md"


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode("utf-8", "replace")
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        for n in names:
            files.append(os.path.relpath(os.path.join(d, n), root))
    return files


def split_key(key):
    m = re.match(r"^(WL|K|P|F|T)([0-9]+)([a-z]?)$", key)
    return m.group(1), int(m.group(2)), m.group(3)


def expand_range(a, b):
    pa, na, sa = split_key(a)
    pb, nb, sb = split_key(b)
    if pa != pb or sa or sb or nb < na or nb - na > 50:
        return [a, b]
    return [f"{pa}{n}" for n in range(na, nb + 1)]


def parse_group(text):
    """Keys at the start of a bracket group's content and after each separator.

    Returns (keys, closed, rest): closed is False when the line ended before "]"."""
    end = text.find("]")
    closed = end >= 0
    body = text if not closed else text[:end]
    keys = []
    for piece in re.split(r"[,;/]", body):
        piece = piece.strip()
        m = RANGE_RE.match(piece)
        if m:
            keys += expand_range(m.group(1), m.group(2))
            continue
        m = KEY_RE.match(piece)
        if m:
            keys.append(m.group(1))
    return keys, closed, (text[end + 1:] if closed else "")


def yaml_flow(line, pos):
    """True when the "[" at pos opens a YAML flow sequence (data, not prose)."""
    before = line[:pos]
    return bool(YAML_FLOW_RE.search(before)) and "#" not in before and '"' not in before \
        and "'" not in before


def citations(path, text):
    """Yield (line, key) for every citation in a file."""
    is_yaml = path.endswith((".yaml", ".yml"))
    open_group = False
    for ln, line in enumerate(text.split("\n"), 1):
        pos = 0
        if open_group:
            m = CONT_RE.match(line)
            rest = line[m.end():]
            if KEY_RE.match(rest) or RANGE_RE.match(rest):
                keys, closed, _ = parse_group(rest)
                for k in keys:
                    yield ln, k
                open_group = not closed
                if closed:
                    pos = line.find("]") + 1
            else:
                open_group = False
        if open_group:
            continue
        while True:
            m = OPEN_RE.search(line, pos)
            if not m:
                break
            if is_yaml and yaml_flow(line, m.start()):
                pos = m.end()
                continue
            keys, closed, _ = parse_group(line[m.end():])
            for k in keys:
                yield ln, k
            if not closed:
                open_group = True
                break
            pos = line.find("]", m.end()) + 1
            # adjacent groups: [WL2][WL5]
            while pos < len(line) and line[pos] == "[" and KEY_RE.match(line[pos + 1:]):
                keys, closed, _ = parse_group(line[pos + 1:])
                for k in keys:
                    yield ln, k
                if not closed:
                    open_group = True
                    break
                pos = line.find("]", pos + 1) + 1
            if open_group:
                break


def read_entries(path):
    """Entries of docs/references.md: key -> dict(line, title, year, url)."""
    entries, errors = {}, []
    cur = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for ln, line in enumerate(lines, 1):
        m = ENTRY_RE.match(line)
        if m:
            key, title = m.group(1), m.group(2)
            if key in entries:
                errors.append(f"{REFS}:{ln}: [{key}] defined twice (first at line {entries[key]['line']})")
            cur = entries.setdefault(key, {"line": ln, "title": title, "year": None, "url": None})
            continue
        if line.startswith("#"):
            cur = None
            continue
        if cur is None:
            continue
        m = re.match(r"^\s*[-*]\s*\**(Year|URL)\**\s*:\s*(.*)$", line)
        if m:
            cur["year" if m.group(1) == "Year" else "url"] = m.group(2).strip()
    for key, e in entries.items():
        where = f"{REFS}:{e['line']}: [{key}]"
        if not e["title"]:
            errors.append(f"{where} has no title")
        if not e["year"] or not re.search(r"\b(19|20)[0-9]{2}\b", e["year"]):
            errors.append(f"{where} has no year (a 'Year:' line with a four-digit year)")
        if not e["url"]:
            errors.append(f"{where} has no 'URL:' line (a URL or DOI, or 'URL not confirmed')")
    return entries, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--strict", action="store_true", help="entries never cited are failures")
    ap.add_argument("--list", action="store_true", help="print the cited keys and their counts")
    args = ap.parse_args()
    root = os.path.abspath(args.root)

    refs = os.path.join(root, REFS)
    if not os.path.isfile(refs):
        print(f"check_references: {REFS} not found under {root}", file=sys.stderr)
        return 1
    entries, errors = read_entries(refs)

    cited = {}
    unresolved = []
    outside = []
    for rel in sorted(tracked_files(root)):
        if not rel.endswith(EXTS) or os.path.normpath(rel) in (os.path.normpath(REFS),
                                                                os.path.normpath(SELF)):
            continue
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            continue
        try:
            with open(full, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if cites_outside(rel):
            for ln, line in enumerate(text.split("\n"), 1):
                m = OUTSIDE_RE.search(line)
                if m:
                    outside.append(f"{rel}:{ln}: names a note outside the repository "
                                   f"('{m.group(0)}'): cite the source's key alone")
        for ln, key in citations(rel, text):
            cited[key] = cited.get(key, 0) + 1
            if key not in entries:
                unresolved.append(f"{rel}:{ln}: [{key}] has no entry in {REFS}")

    if args.list:
        for key in sorted(cited, key=split_key):
            print(f"{key}\t{cited[key]}")

    never = sorted((k for k in entries if k not in cited), key=split_key)
    for e in errors + unresolved + outside:
        print(e)
    for k in never:
        kind = "error" if args.strict else "warning"
        print(f"{REFS}:{entries[k]['line']}: {kind}: [{k}] is never cited")
    failed = bool(errors or unresolved or outside or (args.strict and never))
    print(f"check_references: {len(cited)} keys cited ({sum(cited.values())} citations), "
          f"{len(entries)} entries, {len(unresolved)} unresolved, {len(errors)} entry errors, "
          f"{len(outside)} outside notes named, "
          f"{len(never)} never cited{' (errors)' if args.strict else ' (warnings)'}"
          f" -> {'FAIL' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
