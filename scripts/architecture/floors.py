#!/usr/bin/env python3
"""Counts type references between the top folders of a Swift target (HearthCore by default).

A folder references another when one of its files names a type (or a free function) declared at
the top level of a file in the other, comments and string literals aside (what an interpolation
holds is inside a string too). `extension T` in a folder references T's folder.

    floors.py                      the pairs of folders that reference each other, and every edge
    floors.py --check              exits 1 unless every reference points down the FLOORS order
    floors.py --explain A B        where folder A names folder B's types
"""
import argparse
import collections
import os
import re
import sys

# The floors of HearthCore, lowest first: a folder may name the types of its own floor's folders
# only when they are the same folder, and of any floor below.
FLOORS = [
    ["Basics"],
    ["Events"],
    ["Database"],
    ["Permissions"],
    ["Users"],
    ["Notifications"],
    ["Households"],
    ["Tasks", "Stores"],
    ["Sync"],
    ["Calendars", "Delivery", "Transfers", "Backups", "PersistedQueries"],
    ["."],
]

DECLARATION = re.compile(
    r"^(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|indirect|nonisolated|open)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias|func)\s+(\w+)")
EXTENSION = re.compile(r"^(?:(?:public|internal|private|fileprivate|package)\s+)*extension\s+(\w+)")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def strip(source):
    """The source without comments and string literals (interpolations included), lines kept."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * source.count("\n", i, j))
            i = j
        elif source[i] == '"' or (source[i] == "#" and source.startswith('#"', i)) or source.startswith('##"', i):
            hashes = 0
            while source[i] == "#":
                hashes += 1
                i += 1
            multi = source.startswith('"""', i)
            quote = '"""' if multi else '"'
            close = quote + "#" * hashes
            j = i + len(quote)
            depth = 0
            while j < n:
                if source[j] == "\\" and not hashes:
                    if source.startswith("\\(", j):
                        # An interpolation: skip to its matching parenthesis (nested strings aside).
                        depth, j = 1, j + 2
                        while j < n and depth:
                            if source[j] == "(":
                                depth += 1
                            elif source[j] == ")":
                                depth -= 1
                            j += 1
                        continue
                    j += 2
                    continue
                if source.startswith(close, j):
                    j += len(close)
                    break
                j += 1
            out.append("\n" * source.count("\n", i, j))
            i = j
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def folder_of(root, path):
    relative = os.path.relpath(path, root)
    return relative.split(os.sep)[0] if os.sep in relative else "."


def scan(root):
    files = []
    for directory, _, names in os.walk(root):
        files += [os.path.join(directory, name) for name in names if name.endswith(".swift")]
    declared = {}
    stripped = {}
    for path in sorted(files):
        with open(path, encoding="utf-8") as handle:
            text = strip(handle.read())
        stripped[path] = text
        for line in text.splitlines():
            match = DECLARATION.match(line)
            if match:
                declared.setdefault(match.group(1), folder_of(root, path))
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for path, text in stripped.items():
        source = folder_of(root, path)
        for number, line in enumerate(text.splitlines(), 1):
            for name in set(IDENTIFIER.findall(line)):
                target = declared.get(name)
                if target and target != source:
                    edges[source][target].append((os.path.relpath(path, root), number, name))
    return edges


def floor(folder):
    for index, folders in enumerate(FLOORS):
        if folder in folders:
            return index
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "HearthCore"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--explain", nargs=2, metavar=("FROM", "TO"))
    arguments = parser.parse_args()
    edges = scan(arguments.root)
    if arguments.explain:
        for path, line, name in edges[arguments.explain[0]][arguments.explain[1]]:
            print(f"{path}:{line}: {name}")
        return 0
    pairs = sorted({tuple(sorted((a, b))) for a in edges for b in edges[a] if a in edges.get(b, {})})
    print(f"{len(pairs)} pairs of folders reference each other")
    for a, b in pairs:
        print(f"  {a} <-> {b} ({len(edges[a][b])} and {len(edges[b][a])} references)")
    upward = []
    for a in sorted(edges):
        for b in sorted(edges[a]):
            fa, fb = floor(a), floor(b)
            if fa is None or fb is None or fb >= fa:
                upward.append((a, b, fa, fb))
    print(f"{len(upward)} references not pointing down the floors")
    for a, b, fa, fb in upward:
        where = edges[a][b][0]
        place = "no floor" if fa is None or fb is None else "same floor" if fa == fb else "up"
        print(f"  {a} -> {b} ({place}; {len(edges[a][b])} references, first {where[0]}:{where[1]} {where[2]})")
    if arguments.check and (pairs or upward):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
