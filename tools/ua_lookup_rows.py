#!/usr/bin/env python3
"""Print the entries of one lookup or set of a Yauaa rule file, one a line.

Reads a rule file already filtered by tools/ua_strip_tests.py on standard
input (never a raw rule file: the filter is what keeps the test cases out
of sight) and prints the entries of the lookup or set named on the command
line: "key<TAB>value" for a lookup's map, "value" for a set's values. Keys
and values are printed as Yauaa writes them, without the quotes and with
surrounding spaces trimmed; an inline "# ..." comment is dropped. Entries a
lookup or set takes from others ("merge:") are not followed: name those
too.

Usage:
  git --git-dir=/work/.mirror/nielsbasjes+yauaa/repo show \
      HEAD:analyzer/src/main/resources/UserAgents/Robots.yaml \
      | python3 tools/ua_strip_tests.py | python3 tools/ua_lookup_rows.py NamedRobots
"""
import re
import sys

HEAD = re.compile(r"^- (lookup|set)\s*:")
NAME = re.compile(r"^\s+name\s*:\s*['\"]?([^'\"#]+?)['\"]?\s*(#.*)?$")
QUOTED = r"'((?:[^']|'')*)'|\"((?:[^\"\\]|\\.)*)\""
MAP_ROW = re.compile(r"^\s+(?:" + QUOTED + r")\s*:\s*(?:" + QUOTED + r")\s*(#.*)?$")
SET_ROW = re.compile(r"^\s+-\s*(?:" + QUOTED + r")\s*(#.*)?$")


def unq(single, double):
    if single is not None:
        return single.replace("''", "'")
    return double


def rows(lines, wanted):
    inside = False
    section = None
    for line in lines:
        line = line.rstrip("\n")
        if HEAD.match(line):
            inside = False
            section = None
            continue
        if re.match(r"^- \w+\s*:", line):
            inside = False
            continue
        m = NAME.match(line)
        if m and section is None:
            inside = m.group(1).strip() == wanted
            continue
        if not inside:
            continue
        s = line.strip()
        if s in ("map:", "values:", "merge:"):
            section = s[:-1]
            continue
        if s == "" or s.startswith("#") or section == "merge":
            continue
        m = MAP_ROW.match(line)
        if m and section == "map":
            yield unq(m.group(1), m.group(2)).strip() + "\t" + unq(m.group(3), m.group(4)).strip()
            continue
        m = SET_ROW.match(line)
        if m and section == "values":
            yield unq(m.group(1), m.group(2)).strip()
            continue
        sys.exit("ua_lookup_rows: line not understood in %s: %r" % (wanted, line))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    n = 0
    for r in rows(sys.stdin, sys.argv[1]):
        print(r)
        n += 1
    if n == 0:
        sys.exit("ua_lookup_rows: no entries for %s" % sys.argv[1])


if __name__ == "__main__":
    main()
