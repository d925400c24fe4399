# docs_blocks.py: the code blocks of a markdown page and the output shown under them, for the
# tests that execute the documentation (tests/python/test_docs.py, test_examples.py).
#
# A fenced block is ```lang ... ```. A ```text block that follows a code block with nothing but
# blank lines or one line ending in ':' ("Prints:", "Its output ...:") between them is that
# block's printed output. Output matches when every line matches in order; a line "..." in the
# expected output stands for any number of lines; numbers compare to the digits shown (one unit
# of the last shown decimal, or 1e-9 relative), so that a last-digit rounding flip of another
# compiler does not fail while a changed result does.
import math
import re

FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


class Block:
    def __init__(self, lang, text, line):
        self.lang, self.text, self.line = lang, text, line
        self.output = None  # the ```text block shown under it, if any
        self.output_line = None

    def __repr__(self):
        return f"<{self.lang} block at line {self.line}>"


def blocks(markdown):
    """every fenced block of a page in order, each code block with the output shown under it"""
    out, cur, lang, start, between = [], None, "", 0, []
    lines = markdown.splitlines()
    for i, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if cur is None:
            if m:
                cur, lang, start = [], m.group(1), i
            elif out and line.strip():
                between.append(line)
            continue
        if m and not m.group(1):
            b = Block(lang, "\n".join(cur) + "\n", start)
            prev = out[-1] if out else None
            joined = [x for x in between if x.strip()]
            if (lang == "text" and prev is not None and prev.lang != "text"
                    and prev.output is None
                    and (not joined or (len(joined) == 1 and joined[0].rstrip().endswith(":")))):
                prev.output, prev.output_line = b.text, start
            else:
                out.append(b)
            cur, between = None, []
            continue
        cur.append(line)
    return out


def _numbers_match(want, got):
    if want == got:
        return True
    try:
        a, b = float(want), float(got)
    except ValueError:
        return False
    if math.isnan(a) and math.isnan(b):
        return True
    decimals = len(want.split(".")[1].split("e")[0].split("E")[0]) if "." in want else 0
    if "e" in want.lower():  # scientific: relative to the shown mantissa digits
        return abs(a - b) <= abs(a) * 10.0 ** (-decimals) * 1.01
    return abs(a - b) <= 10.0 ** (-decimals) * 1.01 or abs(a - b) <= 1e-9 * abs(a)


def line_matches(want, got):
    """text equal, numbers equal to the digits shown"""
    want, got = want.rstrip(), got.rstrip()
    wt, gt = NUMBER.split(want), NUMBER.split(got)
    wn, gn = NUMBER.findall(want), NUMBER.findall(got)
    if len(wn) != len(gn):
        return False
    # the text between numbers, whitespace runs taken as one (aligned columns may shift)
    norm = [lambda s: re.sub(r"\s+", " ", s)][0]
    if [norm(x) for x in wt] != [norm(x) for x in gt]:
        return False
    return all(_numbers_match(a, b) for a, b in zip(wn, gn))


def output_matches(expected, got):
    """(True, "") or (False, why): every expected line in order, "..." for any lines"""
    want = [x.rstrip() for x in expected.rstrip("\n").splitlines()]
    have = [x.rstrip() for x in got.rstrip("\n").splitlines()]

    def match(i, j):
        if i == len(want):
            return j == len(have)
        if want[i] == "...":
            return any(match(i + 1, k) for k in range(j, len(have) + 1))
        return j < len(have) and line_matches(want[i], have[j]) and match(i + 1, j + 1)

    if match(0, 0):
        return True, ""
    # the first line that differs, for the message
    j = 0
    for i, w in enumerate(want):
        if w == "...":
            break
        if j >= len(have) or not line_matches(w, have[j]):
            return False, (f"line {i + 1}: expected\n  {w!r}\ngot\n  "
                           f"{have[j] if j < len(have) else '(end of output)'!r}")
        j += 1
    return False, "the output differs after a '...'"
