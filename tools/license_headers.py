#!/usr/bin/env python3
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Checks (default) or adds (--fix) the license header of every source file in the repository.

Run from the repository root: python3 tools/license_headers.py [--fix]
Source files: git's tracked files (plus untracked ones not ignored) ending in .java, .c, .h, .py, .sh,
and the shell scripts bin/* and .ci/run. A file's header comes first, after a '#!' line if it has
one. The generators (tools/gen_*.py) put JAVA_HEADER at the top of the files they write.
Exit status: 0 when every file has its header, 1 otherwise (the files are listed).
"""
import subprocess
import sys

COPYRIGHT = "Copyright 2026 The jshmem developers"
SPDX = "SPDX-License-Identifier: Apache-2.0"
JAVA_HEADER = f"/*\n * {COPYRIGHT}\n * {SPDX}\n */\n"
HASH_HEADER = f"# {COPYRIGHT}\n# {SPDX}\n"

# Files that are not ours to label: the Maven wrapper is Apache Maven's, with its own header.
THIRD_PARTY = {"mvnw", "mvnw.cmd"}
# The starter is the template of a user's own project (the README shows its files verbatim).
USERS_OWN = ("starter/",)


def header_for(path):
    if path.endswith((".java", ".c", ".h")):
        return JAVA_HEADER
    if path.endswith((".py", ".sh")) or path.startswith("bin/") or path == ".ci/run":
        return HASH_HEADER
    return None


def source_files():
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            check=True, capture_output=True, text=True).stdout.split("\n")
    return sorted(p for p in listed if p and p not in THIRD_PARTY and not p.startswith(USERS_OWN)
                  and header_for(p) is not None)


def split_shebang(text):
    if text.startswith("#!"):
        end = text.find("\n") + 1
        return text[:end], text[end:]
    return "", text


def has_header(text, header):
    return split_shebang(text)[1].startswith(header)


def main(args):
    fix = "--fix" in args
    missing = []
    for path in source_files():
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            continue  # deleted but not yet staged
        header = header_for(path)
        if has_header(text, header):
            continue
        if fix:
            shebang, rest = split_shebang(text)
            with open(path, "w", encoding="utf-8") as f:
                f.write(shebang + header + rest)
        else:
            missing.append(path)
    if missing:
        print("files without the license header (python3 tools/license_headers.py --fix adds it):")
        for path in missing:
            print("  " + path)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
