#!/usr/bin/env python3
"""Print a Yauaa rule file without its test cases.

Yauaa's rule files (analyzer/src/main/resources/UserAgents/*.yaml) hold
matchers, lookups and sets, and also "- test:" blocks with user agents and
their expected answers. Some of those test cases are the held-out set Weir's
analyzer is judged on, so they must never be read. This filter reads a rule
file on standard input and writes it to standard output with every
"- test:" block dropped: from a "- test:" line up to the next list item that
is not a test ("- matcher:", "- lookup:", "- set:") or the next line indented
less than the test item. Comment lines inside a dropped block are dropped
with it (test blocks are often preceded or interleaved with comments that
quote user agents), and so are commented-out tests ("#  - test:",
"#    user_agent_string: ...") with the comment lines that follow them.
A file made only of tests prints nothing but its
non-test lines.

Usage:
  git --git-dir=/work/.mirror/nielsbasjes+yauaa/repo show \
      HEAD:analyzer/src/main/resources/UserAgents/Robots.yaml \
      | python3 tools/ua_strip_tests.py
"""
import re
import sys

ITEM = re.compile(r"^(\s*)-\s+(\w+)\s*:")
# A commented-out test ("#  - test:", "#    user_agent_string: ..."): it and
# the comment lines after it are dropped too.
COMMENTED_TEST = re.compile(r"^\s*#.*?(-\s*test|\binput|\bexpected|\buser_agent_string)\s*:", re.I)


def strip_tests(lines):
    skipping = False
    in_commented_test = False
    test_indent = 0
    dropped = 0
    for line in lines:
        stripped = line.strip()
        if COMMENTED_TEST.match(line):
            in_commented_test = True
            dropped += 1
            continue
        if in_commented_test:
            if stripped == "" or stripped.startswith("#"):
                continue
            in_commented_test = False
        m = ITEM.match(line)
        if m:
            indent, kind = len(m.group(1)), m.group(2)
            if kind == "test":
                skipping, test_indent = True, indent
                dropped += 1
                continue
            if skipping and indent <= test_indent:
                skipping = False
        elif skipping:
            stripped = line.strip()
            if stripped == "" or stripped.startswith("#"):
                continue
            indent = len(line) - len(line.lstrip())
            if indent <= test_indent and not line.lstrip().startswith("-"):
                # A top level key ends the test block.
                skipping = False
            else:
                continue
        if not skipping:
            yield line
    sys.stderr.write("ua_strip_tests: dropped %d test blocks\n" % dropped)


def main():
    for line in strip_tests(sys.stdin):
        sys.stdout.write(line)


if __name__ == "__main__":
    main()
