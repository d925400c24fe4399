#!/usr/bin/python3
"""cli_docs_test.py DCTWIN MAN_PAGE COMPLETION (ctest cli.docs): the man page and the bash
completion, which the build generates from the CLI's definitions (`dctwin man`, `dctwin completion
bash`, solver/cli/cli_docs.h), cannot drift from the program: every subcommand and every option
that `dctwin --help` and `dctwin SUB --help` print (CLI11's own formatter, not the generator) is in
both; the man page has EXIT STATUS, ENVIRONMENT and EXAMPLES; every example names a subcommand and
options that exist; the hidden generator commands are offered nowhere; groff reads the page
without a warning."""
import re
import shutil
import subprocess
import sys


def help_of(dctwin, *args):
    p = subprocess.run([dctwin, *args, "--help"], capture_output=True, text=True, check=True)
    return p.stdout


def sections(text):
    """CLI11's help: {'Options': [...lines], 'Positionals': [...], 'Subcommands': [...]}"""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\w[\w ]*):\s*$", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur and line.startswith("  ") and not line.startswith("   "):
            out[cur].append(line)
    return out


def options_of(text):
    """the option names (-s, --scenario) and positional names of a --help text"""
    s = sections(text)
    opts, pos = [], []
    for line in s.get("Options", []):
        first = line.split()[0]
        opts += [n for n in first.split(",") if n.startswith("-")]
    for line in s.get("Positionals", []):
        pos.append(line.split()[0])
    return opts, pos


def roff(s):
    return s.replace("\\", "\\e").replace("-", "\\-")


def main():
    dctwin, man_path, comp_path = sys.argv[1:4]
    man = open(man_path).read()
    comp = open(comp_path).read()
    fail = []
    top = help_of(dctwin)
    subs = [line.split()[0] for line in sections(top).get("Subcommands", [])]
    if len(subs) < 9:
        fail.append(f"only {len(subs)} subcommands found in --help: {subs}")
    m = re.search(r'local subcommands="([^"]*)"', comp)
    comp_subs = m.group(1).split() if m else []
    if sorted(comp_subs) != sorted(subs):
        fail.append(f"completion's subcommands {comp_subs} != --help's {subs}")
    for hidden in ("completion", "man"):
        if hidden in subs or hidden in comp_subs or f'.SS "dctwin {hidden}"' in man:
            fail.append(f"the hidden command '{hidden}' is shown")
    top_opts, _ = options_of(top)
    for o in top_opts:
        if roff(o) not in man:
            fail.append(f"man page: no general option {o}")
    checked = 0
    man_sections = re.split(r'\n\.S[SH] ', man)
    for sub in subs:
        opts, pos = options_of(help_of(dctwin, sub))
        cm = re.search(rf"^    {sub}\) opts=\"([^\"]*)\"", comp, re.M)
        comp_opts = cm.group(1).split() if cm else None
        if comp_opts is None:
            fail.append(f"completion: no options for '{sub}'")
            comp_opts = []
        body = next((x for x in man_sections if x.startswith(f'"dctwin {sub}"')), None)
        if body is None:
            fail.append(f"man page: no section for 'dctwin {sub}'")
            body = ""
        for o in opts:
            checked += 1
            if o not in comp_opts:
                fail.append(f"completion: 'dctwin {sub} {o}' missing")
            if not re.search(r"\\fB" + re.escape(roff(o)) + r"\\fR", body):
                fail.append(f"man page: 'dctwin {sub} {o}' missing")
        for p in pos:
            checked += 1
            if f".I {roff(p.upper())}" not in body:
                fail.append(f"man page: positional {p.upper()} of 'dctwin {sub}' missing")
            if not re.search(rf"^    {sub}\) COMPREPLY", comp, re.M):
                fail.append(f"completion: no files for the positional of '{sub}'")
        # the man page lists nothing the program does not have
        for name in re.findall(r"\\fB(\\-[^\\]*(?:\\-[^\\]*)*)\\fR", body):
            plain = name.replace("\\-", "-")
            if plain.startswith("-") and plain not in opts:
                fail.append(f"man page: 'dctwin {sub} {plain}' is not an option of the program")
    for head in (".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES", ".SH SYNOPSIS"):
        if head not in man:
            fail.append(f"man page: no {head}")
    for code in ("0", "1", "2", "3", "4", "5", "6", "7", "128+N"):
        if f".TP\n.B {code}\n" not in man:
            fail.append(f"man page: exit status {code} not listed")
    for var in ("DCTWIN_DATA", "DCTWIN_SCRIPTS"):
        if f".B {var}\n" not in man:
            fail.append(f"man page: environment variable {var} not listed")
    ex = man.split(".SH EXAMPLES", 1)[-1].split(".SH", 1)[0]
    examples = [line[3:].replace("\\-", "-") for line in ex.splitlines() if line.startswith(".B ")]
    if len(examples) < 5:
        fail.append(f"man page: {len(examples)} examples")
    for line in examples:
        words = line.split()
        if words[0] != "dctwin" or words[1] not in subs:
            fail.append(f"example '{line}': no such subcommand")
            continue
        opts, _ = options_of(help_of(dctwin, words[1]))
        for w in words[2:]:
            if w.startswith("-") and w.split("=")[0] not in opts:
                fail.append(f"example '{line}': '{w}' is not an option of dctwin {words[1]}")
    if shutil.which("groff"):
        g = subprocess.run(["groff", "-ww", "-z", "-man", man_path], capture_output=True, text=True)
        if g.returncode != 0 or g.stderr.strip():
            fail.append("groff: " + g.stderr.strip()[:500])
    if checked < 40:
        fail.append(f"only {checked} options and positionals checked")
    for f in fail:
        print("FAIL:", f)
    print(f"{len(subs)} subcommands, {checked} options and positionals, {len(examples)} examples "
          "checked against the man page and the completion")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
