# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""The Javadoc descriptions of the generated API (ShmemCtx): one text per routine family,
parameterized by the element type, so that every typed variant says the same things about what the
routine does (and its OpenSHMEM name), when it returns and what it completes, how it is ordered and
how atomic it is, what it throws and which routines go with it.

gen_ctx.py calls these; javadoc_tags.py then adds the @param and @return tags. The exceptions named
here are the ones the runtime (shmem-core's CtxBase, Arrays2, PeState) throws: keep them in step.
"""
import re
import textwrap

WIDTH = 100  # of the comment's text lines, after the "     * " prefix
INDENT = "    "

# ---------------------------------------------------------------- references (@see, {@link})

PUT = "#put(SymArray, long, Object, int, int, int)"
PUT_SEG = "#put(SymArray, long, MemorySegment, int)"
GET = "#get(Object, int, SymArray, long, int, int)"
GET_SEG = "#get(MemorySegment, SymArray, long, int)"
PUT_NBI = "#putNbi(SymArray, long, Object, int, int, int)"
GET_NBI = "#getNbi(Object, int, SymArray, long, int, int)"
PUTMEM = "#putmem(SymArray, long, MemorySegment, int)"
GETMEM = "#getmem(MemorySegment, SymArray, long, int)"
PUT_SIGNAL = "#putSignal(SymArray, long, Object, int, int, SymLongArray, long, long, SignalOp, int)"
PUT_SIGNAL_NBI = "#putSignalNbi(SymArray, long, Object, int, int, SymLongArray, long, long, SignalOp, int)"
SIGNAL_ADD = "#signalAdd(SymLongArray, long, long, int)"
SIGNAL_SET = "#signalSet(SymLongArray, long, long, int)"
SIGNAL_WAIT = "Shmem#signalWaitUntil(SymLongArray, long, Cmp, long)"
SIGNAL_FETCH = "Shmem#signalFetch(SymLongArray, long)"
FENCE = "#fence()"
QUIET = "#quiet()"
PE_QUIET = "#peQuiet(int...)"
BARRIER_ALL = "Shmem#barrierAll()"


def typed_name(routine, t):
    """The generic and the typed C names of a routine, as Javadoc: {@code shmem_R} ({@code shmem_T_R})."""
    return f"{{@code shmem_{routine}}} ({{@code shmem_{t}_{routine}}})"


def sym(t):
    """The symmetric array type holding {@code t} elements."""
    return f"Sym{t[0].upper()}{t[1:]}Array"


def amo(name, t, *extra):
    """A reference to a typed AMO method: its symmetric object and index, the extra parameters, the PE."""
    return f"#{name}({sym(t)}, long{''.join(', ' + e for e in extra)}, int)"


def amo_nbi(name, t, *extra):
    return f"#{name}({t}[], int, {sym(t)}, long{''.join(', ' + e for e in extra)}, int)"


def wait(name, t, vector=False, indices=False, single=False):
    if single:
        return f"#{name}({sym(t)}, long, Cmp, {t})"
    return f"#{name}({sym(t)}, {'long[], ' if indices else ''}int[], Cmp, {t}{'[]' if vector else ''})"


# ---------------------------------------------------------------- layout


_INLINE = re.compile(r"\{@[^}]*\}")


def _wrap(text, **kw):
    """textwrap.wrap that keeps each inline tag ({@code ...}, {@link ...}) on one line."""
    glued = _INLINE.sub(lambda m: m.group(0).replace(" ", "\0"), text)
    return [line.replace("\0", " ") for line in textwrap.wrap(glued, WIDTH, **kw)]


def doc(*paragraphs, throws=(), see=()):
    """A Javadoc comment at the interface's indentation: paragraphs (the first is the summary),
    then @throws (type, condition) and @see lines. Lines are wrapped at WIDTH."""
    lines = [f"{INDENT}/**"]
    for i, p in enumerate(paragraphs):
        if i:
            lines.append(f"{INDENT} *")
            p = "<p>" + p
        lines += [f"{INDENT} * {line}" for line in _wrap(p)]
    block = [f"@throws {exc} {why}" for exc, why in throws] + [f"@see {ref}" for ref in see]
    if block:
        lines.append(f"{INDENT} *")
    for tag in block:
        wrapped = _wrap(tag, subsequent_indent="        ")
        lines += [f"{INDENT} * {line}" for line in wrapped]
    return "\n".join(lines + [f"{INDENT} */"]) + "\n"


# ---------------------------------------------------------------- what the runtime throws


def bad_sym(*objects, outside=None):
    """ShmemException for the symmetric side: the PE, the range, the object, a dead handle."""
    names = " or ".join(f"{{@code {o}}}" for o in objects)
    outside = outside or f"the elements are not all inside {names}"
    why = ("{@code pe} is not a PE of the context's team, "
           + f"{outside}, {names} is not a live symmetric object (null, freed, "
           "or of another heap), the context was closed, or jshmem was finalized (this handle is then"
           " dead, even after a new init)")
    return ("ShmemException", "naming this PE, if " + why)


def npe(what):
    return ("NullPointerException", f"if {what} is null")


def ioobe(array, index, count):
    return ("IndexOutOfBoundsException",
            f"if the local array {{@code {array}}} has no elements {{@code [{index}, {index} + {count})}}")


WHOLE_SEGMENT = ("IllegalArgumentException", "if the segment is not a whole number of elements of the object's type")
BAD_STRIDES = ("IllegalArgumentException",
               "if a stride is below 1, a count is negative, or (blocked forms) a block is longer than a stride")
ABORTED = ("JobAbortedException", "if the job is being aborted (another PE died or called globalExit) while it waits")

# ---------------------------------------------------------------- sentences shared by families

PUT_COMPLETION = ("<b>Completion:</b> it returns once the local source may be modified again (local completion). "
                  "The data may not have reached {@code pe} yet: {@link #quiet()} (or a barrier) completes it, "
                  "after which every PE sees it.")
NBI_PUT_COMPLETION = ("<b>Completion:</b> non-blocking: it may return before the data has even been read from "
                      "the local source, which must not be modified until {@link #quiet()} (or "
                      "{@link #sessionStop()}, or a barrier) returns; the data is then delivered and visible "
                      "on {@code pe}.")
PUT_ORDER = ("<b>Ordering:</b> {@link #fence()} delivers it to {@code pe} before the puts, AMOs and signals "
             "issued to that PE after the fence; without a fence or quiet, puts to one PE may arrive in any "
             "order. It is not atomic: concurrent writes to the same elements leave undefined values, and "
             "a get after it sees its data only after {@link #quiet()}.")
GET_COMPLETION = ("<b>Completion:</b> blocking: it returns when the data is in the local destination. It "
                  "reads what {@code pe}'s copy holds at some moment during the call; puts this PE issued "
                  "to {@code pe} before it are guaranteed to be seen only after {@link #quiet()} ({@link "
                  "#fence()} does not order gets).")
NBI_GET_COMPLETION = ("<b>Completion:</b> non-blocking: it returns at once; the local destination holds the "
                      "data only after {@link #quiet()} (or {@link #sessionStop()}) returns, and must not be "
                      "read or written before. {@link #fence()} does not order it.")
AMO_ATOMIC = ("<b>Atomicity:</b> atomic with respect to the other AMOs on the same element with the same "
              "type, from any PE and any context; not with respect to puts, gets, {@code p}/{@code g} or "
              "this PE's plain loads and stores of the element (mixing them is undefined in OpenSHMEM).")
SIG_ATOMIC = ("the signal update is atomic with respect to the other signal routines on the same word "
              "({@code signalAdd}, {@code signalSet}, put-with-signal, {@code signalFetch}, "
              "{@code signalWaitUntil}).")

# ---------------------------------------------------------------- RMA


def rma(kind):
    """put, get, their segment, nbi and byte forms."""
    nbi = kind.endswith("Nbi")
    base = kind[:-3] if nbi else kind
    is_put = base.startswith("put")
    seg = kind in ("putSeg", "getSeg", "putSegNbi", "getSegNbi")
    mem = base in ("putmem", "getmem")
    c = {"put": "shmem_put", "putSeg": "shmem_put", "get": "shmem_get", "getSeg": "shmem_get",
         "putmem": "shmem_putmem", "getmem": "shmem_getmem"}[base] + ("_nbi" if nbi else "")
    typed = "" if mem else f" (the typed C forms are {{@code shmem_TYPE_{'put' if is_put else 'get'}{'_nbi' if nbi else ''}}})"
    if is_put:
        if mem:
            what = ("Copies every byte of the local segment {@code source} into the symmetric object "
                    "{@code dest} on PE {@code pe}, from byte offset {@code destOffset}: an untyped put")
        elif seg:
            what = ("Copies the elements of the local segment {@code source} (all of it, a whole number of "
                    "the object's elements, in native byte order) into {@code dest} on PE {@code pe}, from "
                    "element {@code destIndex}")
        else:
            what = ("Copies {@code nelems} elements of the local array {@code source}, from {@code "
                    "sourceIndex}, into the symmetric object {@code dest} on PE {@code pe}, from element "
                    "{@code destIndex}")
    else:
        if mem:
            what = ("Fills the local segment {@code dest} with bytes of the symmetric object {@code source} "
                    "on PE {@code pe}, from byte offset {@code sourceOffset}: an untyped get")
        elif seg:
            what = ("Fills the local segment {@code dest} (a whole number of the object's elements, in "
                    "native byte order) with elements of {@code source} on PE {@code pe}, from element "
                    "{@code sourceIndex}")
        else:
            what = ("Copies {@code nelems} elements of the symmetric object {@code source} on PE {@code pe}, "
                    "from element {@code sourceIndex}, into the local array {@code dest}, from {@code "
                    "destIndex}")
    summary = f"{what}; OpenSHMEM {{@code {c}}}{typed}."
    if is_put:
        paras = [summary, NBI_PUT_COMPLETION if nbi else PUT_COMPLETION, PUT_ORDER]
    else:
        paras = [summary, NBI_GET_COMPLETION if nbi else GET_COMPLETION]
    remote, local = ("dest", "source") if is_put else ("source", "dest")
    throws = [bad_sym(remote)]
    if seg or mem:
        throws.append(npe(f"{{@code {local}}}"))
        if seg:
            throws.append(WHOLE_SEGMENT)
    else:
        throws += [npe(f"{{@code {local}}}"), ioobe(local, local + "Index", "nelems")]
    if is_put:
        see = [PUT_NBI if not nbi else PUT, PUT_SIGNAL, FENCE, QUIET]
    else:
        see = [GET_NBI if not nbi else GET, QUIET]
    return doc(*paras, throws=throws, see=see)


def strided(kind):
    is_put = kind in ("iput", "ibput")
    blocked = kind.startswith("ib")
    if blocked:
        shape = ("{@code nblocks} blocks of {@code bsize} contiguous elements; block {@code k} starts at "
                 "{@code source[sourceIndex + k*sst]} and goes to {@code dest[destIndex + k*dst]}")
    else:
        shape = ("{@code nelems} elements; element {@code i} is {@code source[sourceIndex + i*sst]} and goes "
                 "to {@code dest[destIndex + i*dst]}")
    where = "from the local array into the symmetric object on PE {@code pe}" if is_put else \
        "from the symmetric object on PE {@code pe} into the local array"
    summary = (f"Strided {'put' if is_put else 'get'}: copies {shape}, {where}; strides count elements; "
               f"OpenSHMEM {{@code shmem_{kind}}} (typed: {{@code shmem_TYPE_{kind}}}).")
    paras = [summary] + ([PUT_COMPLETION, PUT_ORDER] if is_put else [GET_COMPLETION])
    remote, local = ("dest", "source") if is_put else ("source", "dest")
    throws = [bad_sym(remote), npe(f"{{@code {local}}}"),
              ("IndexOutOfBoundsException", f"if the local array {{@code {local}}} does not hold every element used"),
              BAD_STRIDES]
    see = [PUT if is_put else GET, QUIET]
    return doc(*paras, throws=throws, see=see)


def put_signal(nbi, seg):
    c = "shmem_put_signal" + ("_nbi" if nbi else "")
    src = ("the local segment {@code source} (all of it, a whole number of elements)" if seg else
           "{@code nelems} elements of the local array {@code source}, from {@code sourceIndex},")
    summary = (f"Put with signal: copies {src} into {{@code dest}} on PE {{@code pe}} from element "
               "{@code destIndex}, then updates the signal word {@code sig[sigIndex]} on that PE: "
               "{@link SignalOp#SET} stores {@code signal}, {@link SignalOp#ADD} adds it. The signal is "
               "updated only after all the data is delivered, so a PE that sees the new signal value sees "
               f"the data too; OpenSHMEM {{@code {c}}}. {{@code sig}} must not overlap the destination elements.")
    completion = NBI_PUT_COMPLETION if nbi else PUT_COMPLETION
    order = ("<b>Ordering:</b> " + SIG_ATOMIC + " {@link #fence()} orders the whole operation like a put, and "
             "{@link #quiet()} completes both the data and the signal.")
    throws = [bad_sym("dest", "sig"), ("NullPointerException", "if {@code source} or {@code sigOp} is null "
                                       "(before any data is written)")]
    throws.append(WHOLE_SEGMENT if seg else ioobe("source", "sourceIndex", "nelems"))
    see = [PUT_SIGNAL if nbi else PUT_SIGNAL_NBI, SIGNAL_WAIT, SIGNAL_FETCH, SIGNAL_ADD, QUIET]
    return doc(summary, completion, order, throws=throws, see=see)


def signal_update(op):
    c = "shmem_signal_" + op
    effect = "adds {@code value} to" if op == "add" else "stores {@code value} in"
    summary = (f"Atomically {effect} the signal word {{@code sig[sigIndex]}} on PE {{@code pe}}, without "
               f"data; OpenSHMEM {{@code {c}}}.")
    completion = ("<b>Completion:</b> like a non-fetching AMO, it may return before the word is updated "
                  "on {@code pe}; {@link #quiet()} completes it.")
    order = ("<b>Ordering:</b> " + SIG_ATOMIC + " After a {@link #fence()}, it is delivered after the puts "
             "issued to {@code pe} before the fence, so put, fence, signal is the split form of a put with "
             "signal.")
    other = SIGNAL_SET if op == "add" else SIGNAL_ADD
    return doc(summary, completion, order, throws=[bad_sym("sig", outside="{@code sigIndex} is outside {@code sig}")],
               see=[other, PUT_SIGNAL, SIGNAL_WAIT, FENCE])


def p(t):
    summary = (f"Writes one {{@code {t}}}, {{@code value}}, to {{@code dest[index]}} on PE {{@code pe}}; "
               f"OpenSHMEM {typed_name('p', t)}.")
    completion = ("<b>Completion:</b> returns at once ({@code value} is passed by value); the store is "
                  "visible on {@code pe} after {@link #quiet()}.")
    order = PUT_ORDER.replace("it. It is not atomic", "it. It is not atomic (use {@code atomicSet} for that)")
    return doc(summary, completion, order, throws=[bad_sym("dest", outside="{@code index} is outside {@code dest}")],
               see=[f"#g({sym(t)}, long, int)", PUT, FENCE, QUIET])


def g(t):
    summary = (f"Reads one {{@code {t}}}, {{@code source[index]}} on PE {{@code pe}}; OpenSHMEM "
               f"{typed_name('g', t)}.")
    completion = GET_COMPLETION.replace("it returns when the data is in the local destination", "it returns the value read") + (
        " Not atomic with respect to AMOs on the element: read such an element with {@code atomicFetch}.")
    return doc(summary, completion, throws=[bad_sym("source", outside="{@code index} is outside {@code source}")], see=[f"#p({sym(t)}, long, {t}, int)", GET, QUIET])


# ---------------------------------------------------------------- atomic memory operations

# op: (C name part, what it does to the element, extra parameters (type -> Java types), fetching)
AMO_OPS = {
    "Fetch": ("fetch", "reads {@code dest[index]} on PE {@code pe} (no update)", ()),
    "Set": ("set", "stores {@code value} in {@code dest[index]} on PE {@code pe}", ("T",)),
    "Swap": ("swap", "stores {@code value} in {@code dest[index]} on PE {@code pe}", ("T",)),
    "CompareSwap": ("compare_swap", "stores {@code value} in {@code dest[index]} on PE {@code pe} if the element "
                    "equals {@code cond} (the comparison and the store are one atomic step)", ("T", "T")),
    "Inc": ("inc", "adds 1 to {@code dest[index]} on PE {@code pe} (wrapping around as Java's {@code +} does)", ()),
    "Add": ("add", "adds {@code value} to {@code dest[index]} on PE {@code pe} (wrapping around as Java's "
            "{@code +} does)", ("T",)),
    "And": ("and", "replaces {@code dest[index]} on PE {@code pe} with its bitwise and with {@code value}", ("T",)),
    "Or": ("or", "replaces {@code dest[index]} on PE {@code pe} with its bitwise or with {@code value}", ("T",)),
    "Xor": ("xor", "replaces {@code dest[index]} on PE {@code pe} with its bitwise exclusive or with "
            "{@code value}", ("T",)),
}


def _amo_c(op, fetching, nbi, t):
    c = AMO_OPS[op][0]
    if fetching and op not in ("Fetch", "Swap", "CompareSwap"):
        c = "fetch_" + c
    return typed_name(f"atomic_{c}{'_nbi' if nbi else ''}", t)


def _amo_method(op, fetching, nbi):
    name = "atomic" + ("Fetch" if fetching and op not in ("Fetch", "Swap", "CompareSwap") else "") + op
    return name + ("Nbi" if nbi else "")


def _amo_ref(op, fetching, nbi, t):
    extra = [t if e == "T" else e for e in AMO_OPS[op][2]]
    name = _amo_method(op, fetching, nbi)
    return amo_nbi(name, t, *extra) if nbi else amo(name, t, *extra)


def atomic(op, t, fetching, nbi=False):
    """An AMO: op one of AMO_OPS; fetching returns (or, nbi, stores) the old value."""
    _, effect, _ = AMO_OPS[op]
    c = _amo_c(op, fetching, nbi, t)
    what = f"Atomically {effect}"
    result = {"Fetch": "its value",
              "CompareSwap": "the element's value before the call (equal to {@code cond} when the store took place)"
              }.get(op, "the element's value before the update")
    if nbi:
        summary = (f"{what}, and stores {result} in the local {{@code fetch[fetchIndex]}}; OpenSHMEM "
                   f"{c}, the non-blocking form of {{@link {_amo_ref(op, True, False, t)}}}.")
        completion = ("<b>Completion:</b> non-blocking: it returns at once; {@code fetch[fetchIndex]} holds the "
                      "value (and the update is complete on {@code pe}) only after {@link #quiet()} (or {@link "
                      "#sessionStop()}) returns. Do not read or write {@code fetch[fetchIndex]} before. "
                      "{@link #fence()} does not order it.")
    elif fetching:
        summary = f"{what}, and returns {result}; OpenSHMEM {c}."
        completion = ("<b>Completion:</b> blocking: it returns when the value has arrived; the update is then "
                      "done on {@code pe} (the other PEs' AMOs see it).")
    else:
        summary = f"{what}; OpenSHMEM {c}."
        completion = ("<b>Completion:</b> it may return before the update is done on {@code pe}; "
                      "{@link #quiet()} (or a barrier) completes it. {@link #fence()} orders it with the puts, "
                      "AMOs and signals to the same PE.")
    throws = [bad_sym("dest", outside="{@code index} is outside {@code dest}")]
    if nbi:
        throws += [npe("{@code fetch}"), ("IndexOutOfBoundsException", "if {@code fetchIndex} is outside {@code fetch}")]
    # The routine's other forms: fetching and not (Set's fetching twin is Swap), blocking and not.
    if nbi:
        see = [_amo_ref(op, True, False, t)]
    elif fetching:
        see = ([_amo_ref(op, False, False, t)] if op not in ("Fetch", "Swap", "CompareSwap") else []) + \
            [_amo_ref(op, True, True, t)]
    else:
        see = [_amo_ref("Swap" if op == "Set" else op, True, False, t)]
    see.append(QUIET)
    return doc(summary, completion, AMO_ATOMIC, throws=throws, see=see)


# ---------------------------------------------------------------- point-to-point synchronization

WAIT_ORDER = ("<b>Ordering:</b> only this PE's copy is read, with atomic loads: have other PEs update it with "
              "AMOs, signals or put-with-signal. Once the comparison holds, the data the updating PE wrote "
              "before the update (put with signal, or puts followed by {@link #fence()} or {@link #quiet()}) "
              "is visible here.")


def sync(kind, t, vector=False):
    """wait/test: kind one of waitUntil, waitUntilAll/Any/Some, test, testAll/Any/Some (+ vector)."""
    blocking = kind.startswith("waitUntil")
    form = kind[len("waitUntil"):] if blocking else kind[len("test"):]
    c = f"{'wait_until' if blocking else 'test'}{('_' + form.lower()) if form else ''}{'_vector' if vector else ''}"
    c = typed_name(c, t)
    cmp = "{@code values[i]}" if vector else "{@code value}"
    elem = f"element {{@code i}} compared with {cmp}" if vector else f"compared with {cmp}"
    if form == "":
        cond = "{@code ivars[index] cmp value} holds on this PE"
    else:
        cond = (f"{'every element' if form == 'All' else 'at least one element'} of {{@code ivars}} not excluded "
                f"by {{@code status}}, {elem}, satisfies {{@code cmp}}")
    result = {"": "", "All": "",
              "Any": ", and returns the index of one such element (which one, when several qualify, is unspecified)",
              "Some": (", stores the indices of all the elements that satisfy it in {@code indices} (in increasing "
                       "order) and returns how many")}[form]
    # What the routine does when no element can qualify (every one excluded) or, for a test, none does now.
    if blocking:
        none = {"": "", "All": "; returns at once when every element is excluded",
                "Any": "; returns -1 at once when every element is excluded",
                "Some": "; returns 0 at once when every element is excluded"}[form]
        what = f"Waits until {cond}{result}{none}."
        completion = "<b>Completion:</b> blocking; a waiting PE spins briefly, then sleeps until a writer wakes it."
    else:
        none = {"": "", "All": " (true when every element is excluded)",
                "Any": "; returns -1 when none does now (or every element is excluded)",
                "Some": "; returns 0 when none does now"}[form]
        what = f"Tests, without waiting, whether {cond}{result}{none}."
        completion = ("<b>Completion:</b> returns at once; call it in a loop to poll, with other work between "
                      "calls.")
    summary = f"{what} OpenSHMEM {c}."
    throws = [("ShmemException", "naming this PE, if {@code index} is outside {@code ivars}, {@code ivars} is "
               "not a live symmetric object, the context was closed or jshmem was finalized" if form == "" else
               "naming this PE, if {@code ivars} is not a live symmetric object, the context was closed or "
               "jshmem was finalized")]
    if blocking:
        throws.append(ABORTED)
    short = [n for n, present in (("status", form != ""), ("values", vector), ("indices", form == "Some")) if present]
    if short:
        names = [f"{{@code {n}}}" for n in short]
        names = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        throws.append(("IllegalArgumentException", f"if {names} is shorter than "
                       "{@code ivars} (a null {@code status} excludes nothing)"))
    if vector:
        throws.append(npe("{@code values}"))
    other = ("test" if blocking else "waitUntil") + form + ("Vector" if vector else "")
    see = [wait(other, t, vector=vector, indices=form == "Some", single=form == ""), SIGNAL_WAIT, PUT_SIGNAL]
    return doc(summary, completion, WAIT_ORDER, throws=throws, see=see)
