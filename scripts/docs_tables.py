#!/usr/bin/env python3
"""Generated blocks in the docs: check them against the program, or rewrite them.

A block is written as

    <!-- BEGIN generated: dctwin outputs --format markdown -->
    ... text ...
    <!-- END generated -->

and holds exactly what the command prints, run with the dctwin binary given by --dctwin
(the first word, `dctwin`, is replaced by it). `check` fails (exit 1) naming every block that
differs; `update` rewrites them. Used by ctest (`docs.generated`) so that the tables in docs/ are
the library's tables (the output table, the file-key tables), never a copy kept by hand.

    python3 scripts/docs_tables.py check  --dctwin build/solver/dctwin [--root .]
    python3 scripts/docs_tables.py update --dctwin build/solver/dctwin [--root .]
"""
import argparse
import difflib
import pathlib
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"(<!-- BEGIN generated: (?P<cmd>[^>]*?) -->\n)(?P<body>.*?)(<!-- END generated -->)",
                   re.S)


def generate(cmd, dctwin, cwd):
    argv = shlex.split(cmd)
    if not argv or argv[0] != "dctwin":
        raise SystemExit(f"generated block: command must start with 'dctwin': {cmd!r}")
    out = subprocess.run([dctwin] + argv[1:], cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"'{cmd}' failed ({out.returncode}): {out.stderr.strip()}")
    return out.stdout if out.stdout.endswith("\n") else out.stdout + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["check", "update"])
    ap.add_argument("--dctwin", required=True, help="the dctwin binary")
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent))
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    bad = blocks = 0
    for doc in sorted((root / "docs").rglob("*.md")):
        text = doc.read_text()
        changed = False

        def fix(m):
            nonlocal bad, blocks, changed
            blocks += 1
            want = generate(m.group("cmd"), a.dctwin, root)
            if m.group("body") == want:
                return m.group(0)
            rel = doc.relative_to(root)
            if a.mode == "check":
                bad += 1
                print(f"{rel}: block '{m.group('cmd')}' differs from the program's output:")
                sys.stdout.writelines(
                    list(difflib.unified_diff(m.group("body").splitlines(True), want.splitlines(True),
                                              "docs", "program", n=1))[:40])
                return m.group(0)
            changed = True
            return m.group(1) + want + m.group(4)

        new = BLOCK.sub(fix, text)
        if changed:
            doc.write_text(new)
            print(f"updated {doc.relative_to(root)}")
    if a.mode == "check":
        if bad:
            print(f"{bad} of {blocks} generated block(s) out of date: "
                  f"python3 scripts/docs_tables.py update --dctwin {a.dctwin}")
            return 1
        print(f"{blocks} generated block(s) up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
