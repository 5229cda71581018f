# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Adds the @param and @return tags a generated Javadoc comment lacks, so that javadoc's doclint
finds every parameter and result of the generated API documented.

The descriptions come from the parameter's name (and, for the local/symmetric sides of a transfer,
its type) and from the method's name for results: the generated routines use one vocabulary
(dest, source, pe, index, value, cmp, ivars, ...). A name without a description stops the
generator, so a new parameter cannot go out undocumented.
"""
import re

_SYM = re.compile(r"^Sym\w*Array(<.*>)?$")


def _side(name, typ, what):
    if _SYM.match(typ):
        return f"the symmetric {what} object"
    if typ == "MemorySegment":
        return f"the local {what} segment"
    return f"the local {what} array"


def _value(method):
    if method.startswith(("waitUntil", "test")):
        return "the value to compare with"
    if method == "atomicCompareSwap" or method == "atomicCompareSwapNbi":
        return "the value to write if the element equals {@code cond}"
    if "Add" in method:
        return "the value to add"
    if any(op in method for op in ("And", "Or", "Xor")):
        return "the operand of the bitwise operation"
    if method.startswith("signal"):
        return "the signal operand"
    return "the value to write"


PARAMS = {
    "destIndex": "the first element of {@code dest} to write",
    "sourceIndex": "the first element of {@code source} to read",
    "destOffset": "the byte offset in {@code dest} where the bytes go",
    "sourceOffset": "the byte offset in {@code source} where the bytes come from",
    "nelems": "the number of elements",
    "pe": "the target PE",
    "pes": "the PEs whose operations to complete",
    "index": "the index of the element in the symmetric object",
    "cond": "the value the element is compared with",
    "values": "the values to compare with, one per element of {@code ivars}",
    "cmp": "the comparison",
    "ivars": "the symmetric array, on this PE, whose elements are compared",
    "status": "which elements of {@code ivars} to leave out (nonzero at {@code i} excludes element {@code i}), or null for none",
    "indices": "receives the indices of the elements that satisfy the comparison",
    "fetch": "the local array that receives the fetched value",
    "fetchIndex": "where in {@code fetch} the value goes",
    "sig": "the symmetric array holding the signal word",
    "sigIndex": "the index of the signal word in {@code sig}",
    "signal": "the signal operand",
    "sigOp": "how the signal word is updated",
    "dst": "the stride between elements (or blocks) of {@code dest}, in elements",
    "sst": "the stride between elements (or blocks) of {@code source}, in elements",
    "bsize": "the number of contiguous elements in a block",
    "nblocks": "the number of blocks",
    "options": "hints about the burst (none is defined yet: 0)",
}

TYPE_PARAMS = {
    "A": "the Java array type of the local side, matching the symmetric object's ({@code long[]} for a {@link SymLongArray}, ...)",
}


def _result(method):
    if method == "g":
        return "the element's value on {@code pe}"
    if method in ("atomicFetch",):
        return "the element's value"
    if method.startswith(("atomicSwap", "atomicCompareSwap", "atomicFetch")):
        return "the element's value before the operation"
    if "Any" in method:
        return ("the index of an element that satisfies the comparison, or -1 if there is none"
                " (every element excluded{})".format("" if method.startswith("waitUntil") else ", or none satisfies it now"))
    if "Some" in method:
        return "how many indices were stored in {@code indices}"
    if method.startswith("test"):
        return "whether the comparison holds (for every element not excluded)"
    raise KeyError(f"no @return description for {method}")


def _param(method, name, typ):
    if name in ("dest", "source"):
        return _side(name, typ, "destination" if name == "dest" else "source")
    if name == "value":
        return _value(method)
    if name not in PARAMS:
        raise KeyError(f"no @param description for {name} (in {method})")
    return PARAMS[name]


_METHOD = re.compile(
    r"(?P<indent>[ \t]*)/\*\*(?P<body>(?:(?!\*/).)*?)\*/\n(?P<decl>[ \t]*(?:default |static )?(?:<(?P<tp>[^>]+)> )?"
    r"(?P<ret>[\w<>\[\]?]+) (?P<name>\w+)\((?P<params>[^)]*)\))", re.S)


def _split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [p.rsplit(" ", 1) for p in out]


def add_tags(source):
    """Returns {@code source} with the missing @param/@return tags added to each method's comment."""

    def fix(m):
        body, name, indent = m.group("body"), m.group("name"), m.group("indent")
        tags = []
        for tp in (m.group("tp") or "").split(","):
            tp = tp.strip().split(" ")[0]  # <T extends X>: T
            if tp and f"@param <{tp}>" not in body:
                tags.append(f"@param <{tp}> {TYPE_PARAMS[tp]}")
        for typ, pname in _split_params(m.group("params")):
            if f"@param {pname} " not in body:
                tags.append(f"@param {pname} {_param(name, pname, typ.replace('...', ''))}")
        if m.group("ret") != "void" and "@return" not in body and "{@return" not in body:
            tags.append(f"@return {_result(name)}")
        if not tags:
            return m.group(0)
        text = [line.strip().lstrip("*").rstrip() for line in body.strip().splitlines()]
        text = [t[1:] if t.startswith(" ") else t for t in text]
        # The new tags go before the block tags already there (@throws, ...), after a blank line.
        first_tag = next((i for i, t in enumerate(text) if t.startswith("@")), len(text))
        head, block = text[:first_tag], text[first_tag:]
        while head and not head[-1]:
            head.pop()
        lines = [f"{indent}/**"] + [f"{indent} * {t}".rstrip() for t in head] + [f"{indent} *"]
        lines += [f"{indent} * {t}" for t in tags + block] + [f"{indent} */"]
        return "\n".join(lines) + "\n" + m.group("decl")

    return _METHOD.sub(fix, source)
