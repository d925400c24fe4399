#!/usr/bin/env python3
"""Generated blocks in the docs: check them against the program, or rewrite them.

A block is written as

    <!-- BEGIN generated: dctwin outputs --format markdown -->
    ... text ...
    <!-- END generated -->

and holds exactly what the command prints, run with the dctwin binary given by --dctwin
(the first word, `dctwin`, is replaced by it). `check` fails (exit 1) naming every block that
differs; `update` rewrites them. Used by ctest (`docs.generated`) so that the tables in docs/ are
the library's tables (the output table, the file-key tables, the fault and event tables), never a
copy kept by hand. `check` also fails when a required block is missing (REQUIRED) and when a
log call of solver/ names an event kind by a string that the event table
(solver/common/event_table.h) lacks (the engine's log calls name EventKind rows, which the compiler
checks; a string written instead is caught here).

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


# blocks the docs must hold (command: the page)
REQUIRED = {
    "dctwin outputs --format markdown": "docs/results.md",
    "dctwin outputs --table layout": "docs/results.md",
    "dctwin outputs --table units": "docs/results.md",
    "dctwin outputs --table faults": "docs/scenario-format.md",
    "dctwin outputs --table events": "docs/scenario-format.md",
}

# the calls that log an event, and the place of the kind among their arguments
LOG_CALLS = {"log": 3, "logEvent": 3, "powerOff": 4, "EventRecord": 2}
LITERAL = re.compile(r'"([a-z][a-z0-9_]*)"')


def call_args(text, start):
    """The top-level arguments of the call whose '(' or '{' is at text[start]."""
    close = {"(": ")", "{": "}"}[text[start]]
    depth, args, cur, i, quote = 0, [], "", start + 1, False
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote, cur = True, cur + c
        elif c in "({[":
            depth, cur = depth + 1, cur + c
        elif c in ")}]" and depth > 0:
            depth, cur = depth - 1, cur + c
        elif c == close:
            return args + [cur]
        elif c == "," and depth == 0:
            args, cur = args + [cur], ""
        else:
            cur += c
        i += 1
    return args


def logged_kinds(root):
    """(kind, file) of every event kind a log call of solver/ names, as a literal or through a
    variable `kind` assigned literals in the same file."""
    out = []
    for src in sorted((root / "solver").rglob("*.cpp")):
        text = src.read_text()
        for name, place in LOG_CALLS.items():
            for m in re.finditer(r"\b%s\s*([({])" % name, text):
                if re.match(r"\s*(void|static|inline)\b", text[text.rfind("\n", 0, m.start()) + 1:m.start()]):
                    continue  # the definition
                args = call_args(text, m.start(1))
                if len(args) <= place:
                    continue
                kinds = LITERAL.findall(args[place])
                if not kinds and re.fullmatch(r"\s*kind\s*", args[place]):
                    kinds = [k for e in re.findall(r"\bkind\s*=\s*([^;]*);", text)
                             for k in LITERAL.findall(e)]
                out += [(k, src.relative_to(root)) for k in kinds]
    return out


def check_tables(root, dctwin):
    bad = 0
    for cmd, page in REQUIRED.items():
        if f"<!-- BEGIN generated: {cmd} -->" not in (root / page).read_text():
            print(f"{page}: the generated block '{cmd}' is missing")
            bad += 1
    table = generate("dctwin outputs --table events", dctwin, root)
    known = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    seen = logged_kinds(root)
    for kind, src in seen:
        if kind not in known:
            print(f"{src}: event kind '{kind}' is logged but not in the event table "
                  "(solver/common/event_table.h)")
            bad += 1
    return bad, len(seen)


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
        missing, logged = check_tables(root, a.dctwin)
        if missing:
            print(f"{missing} table problem(s)")
            return 1
        print(f"{logged} event kind(s) logged by name, all in the event table")
        if bad:
            print(f"{bad} of {blocks} generated block(s) out of date: "
                  f"python3 scripts/docs_tables.py update --dctwin {a.dctwin}")
            return 1
        print(f"{blocks} generated block(s) up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
