#!/usr/bin/env python3
"""Fails CI when a test that needs something the CI machine has was skipped instead of run.

The CI machine (.ci/run, root on Debian) has JDK 17, pip and python3, a C compiler, root, setpriv and chromium, so a test
skipped for want of one of them is a test CI claims to run but did not: the reason is a broken install step, not the
machine. Reads the JUnit XML reports Maven wrote (surefire and failsafe) under every module's target/ and exits 1 naming each such
skipped test and the reason. Other skips (a machine without CPU 1, no perf_event_open on a VM) stay skips.

Usage: python3 .ci/required-skips.py [build root, default: the folder above .ci]
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

# what CI has -> how the tests' skip messages name its absence (the guards in the tests use these words)
REQUIRED = {
    "JDK 17": re.compile(r"no JDK 17\b"),
    "a C compiler": re.compile(r"C compiler"),
    "root": re.compile(r"needs root"),
    "setpriv": re.compile(r"setpriv"),
    "pip": re.compile(r"\bpip\b"),
    "python3": re.compile(r"no python3\b"),
    "chromium": re.compile(r"no headless browser"),
}


def skipped(root):
    """Yields (test, message) for every skipped test case in the reports under root."""
    pattern = os.path.join(root, "*", "target", "*-reports", "TEST-*.xml")
    for report in sorted(glob.glob(pattern)):
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            for skip in case.findall("skipped"):
                message = (skip.get("message") or "") + " " + (skip.text or "")
                yield case.get("classname", "?") + "." + case.get("name", "?"), message.strip()


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = []
    for test, message in skipped(root):
        for needed, reason in REQUIRED.items():
            if reason.search(message):
                said = next(line for line in message.splitlines() if reason.search(line)).strip()
                failures.append(f"{test}: skipped for want of {needed}, which CI has: {said}")
                break
    for failure in failures:
        print("ci: " + failure, file=sys.stderr)
    if failures:
        print(f"ci: {len(failures)} test(s) skipped that CI must run; fix the install step in .ci/run", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
