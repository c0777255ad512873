#!/usr/bin/env python3
"""Runs every shell command shown in README.md and docs/*.md on the built tree, and compares the output's shape with
the page (run by .ci/run after bin/test; `python3 .ci/docs-commands.py` by hand).

What counts as a command: a line in a fenced code block that starts with `bin/chiplet`, `chiplet <command>`,
`$ bin/chiplet`, `bin/test`, `java -jar jmh/target/benchmarks.jar` or `./mvnw`.
- A synopsis (a line with `[`, `|`, `<` or `...`) is not run as is: `--help` of its command is, and every option the
  synopsis shows must be one that --help lists.
- A command that takes long runs as its short variant (SHORT below) and must still exit 0.
- A command the page shows output for (the lines after it in the same block) must print lines that start with the same
  labels (the first word, or the text before `=`) as the page's, in the same order; values may differ (another machine).
- Maven commands are the build CI itself runs (bin/test): they are listed, not run again.
Exit status 1 with one line per mismatch; the whole run takes a few minutes (the demo's short variant builds the Spark
class path once).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT_S = 600
COMMAND = re.compile(r"^\s*(\$ )?(bin/chiplet\b|bin/test\b|chiplet (topology|counters|exec|plan|advise|doctor|demo|bench)\b"
                     r"|java -jar jmh/target/benchmarks\.jar|\./mvnw\b)")
SYNOPSIS = re.compile(r"\[|\||<|\.\.\.")
# Long commands and what runs in their place: same code path, bounded time.
SHORT = {
    "bin/chiplet demo": "bin/chiplet demo --rounds 0",
    "java -jar jmh/target/benchmarks.jar PlannerBenchmark -prof gc": "java -jar jmh/target/benchmarks.jar -l",
    "java -jar jmh/target/benchmarks.jar DiscoveryBenchmark -f 1 -wi 3 -i 5": "java -jar jmh/target/benchmarks.jar -l",
}
# What a short variant's output must hold (the benchmark the page names must exist).
SHORT_EXPECTS = {
    "java -jar jmh/target/benchmarks.jar PlannerBenchmark -prof gc": "PlannerBenchmark",
    "java -jar jmh/target/benchmarks.jar DiscoveryBenchmark -f 1 -wi 3 -i 5": "DiscoveryBenchmark",
}


def pages():
    yield os.path.join(ROOT, "README.md")
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            yield os.path.join(docs, name)


def blocks(path):
    """Fenced code blocks of a page, as lists of lines."""
    block = None
    with open(path, encoding="utf-8") as page:
        for line in page:
            line = line.rstrip("\n")
            if line.strip().startswith("```"):
                if block is None:
                    block = []
                else:
                    yield block
                    block = None
            elif block is not None:
                block.append(line)


def commands(path):
    """(command, the output lines the page shows after it) for each command of a page."""
    for block in blocks(path):
        for index, line in enumerate(block):
            match = COMMAND.match(line)
            if not match:
                continue
            command = line.strip()
            if command.startswith("$ "):
                command = command[2:]
            command = re.sub(r"\s+#.*$", "", command).strip()
            if command.startswith("chiplet "):
                command = "bin/" + command
            shown = []
            for following in block[index + 1:]:
                if COMMAND.match(following):
                    break
                shown.append(following)
            yield command, shown


def label(line):
    """The first word of a line, or the text before `=`: what stays the same on another machine."""
    text = line.strip()
    if "=" in text.split(" ")[0]:
        return text.split("=", 1)[0]
    return text.split(" ", 1)[0] if text else ""


def java_env():
    """bin/chiplet's JDK for `java -jar` commands (the page's `java` is a JDK 25)."""
    found = subprocess.run(["bash", "-c", '. bin/lib/find-jdk.bash && find_jdk && printf %s "$CHIPLET_JAVA_HOME"'], cwd=ROOT,
                           capture_output=True, text=True)
    env = dict(os.environ)
    if found.returncode == 0 and found.stdout:
        env["PATH"] = os.path.join(found.stdout, "bin") + os.pathsep + env["PATH"]
    return env


def run(command, env):
    try:
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % TIMEOUT_S
    return done.returncode, done.stdout, done.stderr


def check_synopsis(command, env, problems, where):
    words = command.split()
    program = []
    for word in words:
        if word.startswith("-") or SYNOPSIS.search(word):
            break
        program.append(word)
    status, out, err = run(" ".join(program) + " --help", env)
    if status != 0:
        problems.append("%s: `%s --help` exited %d: %s" % (where, " ".join(program), status, (err or out).strip()[:300]))
        return
    for option in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", command))):
        if option not in out:
            problems.append("%s: synopsis `%s` shows %s, which `%s --help` does not list" % (where, command, option, " ".join(program)))


def check_shape(command, shown, out, problems, where):
    expected = [label(line) for line in shown if line.strip() and not line.startswith((" ", "\t"))]
    if not expected:
        return
    actual = [label(line) for line in out.splitlines() if line.strip() and not line.startswith((" ", "\t"))]
    position = 0
    for wanted in expected:
        try:
            position = actual.index(wanted, position) + 1
        except ValueError:
            problems.append("%s: `%s` printed no line starting %r where the page shows one (printed: %s)" % (where, command, wanted, actual[:20]))
            return


def main():
    env = java_env()
    problems = []
    ran = skipped = 0
    for path in pages():
        page = os.path.relpath(path, ROOT)
        for command, shown in commands(path):
            where = page
            if command.startswith("./mvnw") or command == "bin/test":
                print("build   %s: %s (CI's bin/test runs the build)" % (page, command))
                skipped += 1
                continue
            if SYNOPSIS.search(command):
                check_synopsis(command, env, problems, where)
                print("synopsis %s: %s" % (page, command))
                ran += 1
                continue
            if re.search(r"--java (/\S+)", command) and not os.path.exists(re.search(r"--java (/\S+)", command).group(1)):
                print("skipped %s: %s (no such JDK here)" % (page, command))
                skipped += 1
                continue
            actual = SHORT.get(command, command)
            status, out, err = run(actual, env)
            print("ran     %s: %s%s -> %d" % (page, actual, "" if actual == command else " (for `%s`)" % command, status))
            ran += 1
            if status != 0:
                problems.append("%s: `%s` exited %d: %s" % (where, actual, status, (err or out).strip().splitlines()[-1:] if (err or out).strip() else ""))
                continue
            if command in SHORT_EXPECTS and SHORT_EXPECTS[command] not in out:
                problems.append("%s: `%s` does not mention %s" % (where, actual, SHORT_EXPECTS[command]))
            if actual == command:
                check_shape(command, shown, out, problems, where)
    print("docs commands: %d checked, %d not run (see above), %d problems" % (ran, skipped, len(problems)))
    for problem in problems:
        print("docs: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
