#!/usr/bin/env python3
"""Keeps docs/demo.md's captured run the demo's real output (run by .ci/run; by hand after changing what the demo prints).

    python3 .ci/demo-capture.py            # check: a short demo run must print what the page shows, line for line in
                                           # structure (values, the number of queries and rounds may differ); exit 1 if not
    python3 .ci/demo-capture.py --update   # recapture: run `bin/chiplet demo` in full and write its output into the page

The captured block is the fenced block between `<!-- demo-capture: begin -->` and `<!-- demo-capture: end -->` in
docs/demo.md, with the one-line note above it saying when and where it was captured. Structure is each line's label
(its indentation and first word, with numbers, query numbers and the verdict's three forms folded together), runs of
equal labels counted once; a few lines that depend on the machine or the options (a topology note, the one-chiplet
note, the warm-up) may be present on either side alone.
"""

import datetime
import os
import platform
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "demo.md")
BEGIN = "<!-- demo-capture: begin -->"
END = "<!-- demo-capture: end -->"
CHECK = ["bin/chiplet", "demo", "--rounds", "2", "--queries", "1,6", "--warmup", "false"]
FULL = ["bin/chiplet", "demo"]
OPTIONAL = {"note:", "This", "Warm-up"}
FOLD = {"No": "<verdict>", "Not": "<verdict>", "With": "<verdict>", "All": "<results>", "RESULTS": "<results>"}
TIMEOUT_S = 1800


def label(line):
    indent = len(line) - len(line.lstrip(" "))
    word = line.strip().split(" ", 1)[0]
    word = FOLD.get(word, word)
    word = re.sub(r"^q\d+$", "q#", word)
    word = re.sub(r"\d+", "#", word)
    return ("  " * min(indent // 2, 2)) + word


def structure(lines):
    labels = []
    for line in lines:
        if not line.strip():
            continue
        current = label(line)
        if current.strip() in OPTIONAL:
            continue
        if not labels or labels[-1] != current:
            labels.append(current)
    return labels


def captured(text):
    """(before, the note line, the block's lines, after) of the page."""
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    inner = text[start:end].strip("\n").split("\n")
    fence = [i for i, line in enumerate(inner) if line.startswith("```")]
    if len(fence) != 2:
        raise SystemExit("demo-capture: %s: expected one fenced block between %s and %s" % (PAGE, BEGIN, END))
    return text[:start], "\n".join(inner[:fence[0]]).strip(), inner[fence[0] + 1:fence[1]], text[end:]


def run(command):
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit("demo-capture: `%s` exited %d" % (" ".join(command), done.returncode))
    return done.stdout, time.monotonic() - began


def java_version():
    found = subprocess.run(["bash", "-c", '. bin/lib/find-jdk.bash && find_jdk && "$CHIPLET_JAVA_HOME/bin/java" -version 2>&1 | head -n 1'],
                           cwd=ROOT, capture_output=True, text=True)
    match = re.search(r'"([^"]+)"', found.stdout)
    return match.group(1) if match else "unknown"


def main(argv):
    with open(PAGE, encoding="utf-8") as page:
        text = page.read()
    before, _, shown, after = captured(text)
    if "--update" in argv:
        out, seconds = run(FULL)
        note = ("Captured by `python3 .ci/demo-capture.py --update` on %s: %s, %d CPUs, JDK %s; %d min %02d s wall for `%s`. "
                "The whole standard output as printed; Spark's and the plugin's log lines (standard error) are left out."
                % (datetime.date.today().isoformat(), platform.machine(), os.cpu_count(), java_version(), seconds // 60, seconds % 60, " ".join(FULL)))
        with open(PAGE, "w", encoding="utf-8") as page:
            page.write(before + "\n" + note + "\n\n```\n" + out.rstrip("\n") + "\n```\n" + after)
        print("demo-capture: wrote %d lines into %s" % (len(out.splitlines()), os.path.relpath(PAGE, ROOT)))
        return 0
    out, seconds = run(CHECK)
    expected, actual = structure(shown), structure(out.splitlines())
    if expected == actual:
        print("demo-capture: docs/demo.md's captured run has the structure `%s` prints (%d labels, %.0f s)" % (" ".join(CHECK), len(actual), seconds))
        return 0
    at = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
    print("demo-capture: docs/demo.md's captured run and `%s` differ in structure at label %d: the page shows %r, the demo prints %r. "
          "Recapture with `python3 .ci/demo-capture.py --update`." % (" ".join(CHECK), at + 1, expected[at:at + 3], actual[at:at + 3]), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
