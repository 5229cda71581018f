#!/usr/bin/env python3
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Checks that every relative link in the repository's markdown documents resolves.

    python3 tools/check_links.py              # the documents listed in DOCUMENTS (globs)
    python3 tools/check_links.py FILE.md ...  # these files

A link [text](target) or ![alt](target) outside code blocks and code spans is checked unless it
has a scheme (https:, mailto:, ...): the file or directory it names must exist, relative to the
document, and its #anchor, if any, must be a heading of the target markdown file (or of the
document itself for a bare #anchor), by GitHub's rules: the heading's text without markdown
formatting, lowercased, punctuation other than '-' and '_' dropped, each space a '-', and a
repeated heading suffixed -1, -2, ... An explicit <a name="..."> or id="..." is an anchor too.
Exit status 0 when every link resolves, 1 listing those that do not (file:line: link: why).
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ['README.md', 'docs/*.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'CHANGELOG.md',
             'bench/README.md', 'conformance/README.md', 'starter/README.md', 'multinode/README.md',
             'dist/src/dist/examples/README.md']

FENCE = re.compile(r'^\s{0,3}(```|~~~)')
LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+(?:name|id)="([^"]+)"|\bid="([^"]+)"')


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    in_fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                if in_fence is None:
                    in_fence = m.group(1)
                elif m.group(1) == in_fence:
                    in_fence = None
                continue
            if in_fence is None:
                yield n, line.rstrip('\n')


def slug(heading):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link: its text
    text = re.sub(r'<[^>]+>', '', text)                         # HTML tags
    text = text.lower()
    text = re.sub(r'[^\w\- ]', '', text)                        # punctuation, incl. ` * ( ) : . ,
    return text.replace(' ', '-')


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if m:
                s = slug(m.group(2))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else f'{s}-{k}')
            for a, b in HTML_ANCHOR.findall(line):
                found.add(a or b)
        _anchors[path] = found
    return _anchors[path]


def check(path):
    problems = []
    rel = os.path.relpath(path, ROOT)
    for n, line in prose_lines(path):
        for m in LINK.finditer(CODE_SPAN.sub('', line)):
            target = m.group(1)
            if not target or re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue
            file_part, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(dest):
                problems.append(f'{rel}:{n}: {target}: no such file {os.path.relpath(dest, ROOT)}')
                continue
            if anchor:
                if not dest.endswith('.md') or os.path.isdir(dest):
                    problems.append(f'{rel}:{n}: {target}: an anchor into a file that is not markdown')
                elif anchor not in anchors(dest):
                    problems.append(f'{rel}:{n}: {target}: no heading #{anchor} in {os.path.relpath(dest, ROOT)}')
    return problems


def main(argv):
    if argv:
        files = [os.path.abspath(a) for a in argv]
    else:
        files = sorted({f for g in DOCUMENTS for f in glob.glob(os.path.join(ROOT, g))})
    problems = []
    for f in files:
        problems += check(f)
    for p in problems:
        print(p)
    print(f'{len(files)} documents, {"all links resolve" if not problems else f"{len(problems)} broken links"}',
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
