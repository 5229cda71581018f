#!/usr/bin/env python3
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Coverage of the OpenSHMEM 1.6 routines by the conformance cases, for conformance/README.md.

For every case registered in a *Cases.java file (committed ones), follows the calls its body
makes (methods of the same file, and the typed helpers AmoOps, SyncOps, TypeOps, Elements) and
collects the jshmem API methods reached; then lists, per OpenSHMEM routine, the cases that call
it. A case listed calls the routine; it does not necessarily check every rule of it.

    python3 conformance/coverage.py           # rewrites the table in conformance/README.md
    python3 conformance/coverage.py --print   # prints it
"""
import re, glob, os, collections, subprocess, sys
HERE=os.path.dirname(os.path.abspath(__file__))
D=os.path.join(HERE,'src/main/java/io/jshmem/conformance')
API=os.path.join(HERE,'..','shmem-api/src/main/java/io/jshmem')
apinames=set()
for f in ['Shmem.java','ShmemCtx.java','ShmemTeam.java','ShmemContext.java']:
    for m in re.finditer(r'^\s+(?:default\s+|static\s+)?(?:<[^>]+>\s+)?[\w<>\[\]?, ]+?\s+(\w+)\(', open(os.path.join(API,f)).read(), re.M):
        apinames.add(m.group(1))
apinames |= {'init','initThread','queryInitialized','close','effective'}
apinames -= {'if','for','switch','return','new'}
# A method declaration up to its opening brace (at the given indentation).
DECL = r'(?:public |private |protected )?(?:static )?(?:final )?(?:<[^>]+> )?[\w<>\[\]?, .]+? (\w+)\([^;{]*\)\s*(?:throws [\w, .]+)?\s*\{'


def bodies(src, indent):
    """(name, body) of every method declared at {indent} (a regex), bodies found by brace matching."""
    for m in re.finditer(r'^' + indent + DECL, src, re.M):
        i, depth = m.end(), 1
        while depth and i < len(src):
            depth += {'{': 1, '}': -1}.get(src[i], 0)
            i += 1
        yield m.group(1), src[m.end():i]


def methods(src):
    """Methods of a case class (4-space indentation), overloads merged."""
    out = collections.defaultdict(str)
    for name, body in bodies(src, '    '):
        out[name] += body
    return out


# API methods each typed helper (AmoOps, SyncOps, ...) calls, by helper method name.
helpers = collections.defaultdict(set)
for hf in ['AmoOps.java', 'SyncOps.java', 'TypeOps.java', 'Elements.java']:
    for name, body in bodies(open(os.path.join(D, hf)).read(), r'\s+'):
        helpers[name] |= {y for y in re.findall(r'\.(\w+)\(', body) if y in apinames}
res=collections.defaultdict(set)
TRACKED=set(subprocess.run(['git','ls-files','*Cases.java'],cwd=D,capture_output=True,text=True).stdout.split()) or None
for f in sorted(glob.glob(D+'/*Cases.java')):
    if TRACKED is not None and os.path.basename(f) not in TRACKED:
        continue  # not committed yet
    src=open(f).read()
    ms=methods(src)
    # registrations
    regs=[]
    cf=ms.get('cases','')
    # TypedBody adds: add(cases, "prefix", new TypedBody() { ... m(c, t) ...});
    for m in re.finditer(r'add\(cases, "([^"]+)", new TypedBody\(\) \{(.*?)\}\);', cf, re.S):
        called=re.findall(r'\{ (\w+)\(c, t\)', m.group(2))
        regs.append((m.group(1)+'.*', called))
    for m in re.finditer(r'Case\.(?:of|atLeast)\((?:\d+, )?"([^"]*)"(\s*\+\s*[^,]+)?,\s*(.*)$', cf, re.M):
        name=m.group(1)+('*' if m.group(2) else '')
        body=m.group(3)
        called=re.findall(r'::(\w+)', body)+re.findall(r'(?<![\w.])(\w+)\(c\b', body)
        regs.append((name, called))
    for name, called in regs:
        seen=set(); stack=list(called); apis=set()
        while stack:
            x=stack.pop()
            if x in seen or x not in ms: continue
            seen.add(x)
            b=ms[x]
            for y in re.findall(r'(?<![\w.])(\w+)\(', b):
                if y in ms: stack.append(y)
            for q, y in re.findall(r'(\w+|[\)\]])\.(\w+)\(', b):
                if y in apinames: apis.add(y)
                if q.endswith('Cases') and y in ms: stack.append(y)
                if y in helpers: apis |= helpers[y]
            for y in re.findall(r'::(\w+)', b):
                if y in apinames: apis.add(y)
                if y in ms: stack.append(y)
        for a in apis: res[a].add(name)
cov={k:sorted(v) for k,v in res.items()}

def cases(*ms, extra=()):
    s=set(extra)
    for m in ms: s |= set(cov.get(m, []))
    # drop the catch-all bad-input cases into their own mention
    return sorted(s)
R=[]
def row(sec, c, java, ms, extra=(), note=''):
    R.append((sec, c, java, cases(*ms, extra=extra), note))
S='Library setup, exit, and query'
row(S,'shmem_init, shmem_init_thread','Shmem.init(), Shmem.initThread(level)',['init','initThread'],['setup.initialized','reinit.* (ReinitTest)'],'every job starts with it; ReinitTest initializes again after finalize')
row(S,'shmem_finalize','s.close()',[],['setup.initialized','after-finalize.* (JobLevelTest)','reinit.* (ReinitTest)'],'every job ends with it')
row(S,'shmem_query_initialized','Shmem.queryInitialized()',['queryInitialized'],[],'')
row(S,'shmem_query_thread','s.queryThread()',['queryThread'],[],'')
row(S,'shmem_pcontrol','s.pcontrol(level)',['pcontrol'],[],'')
row(S,'shmem_global_exit','s.globalExit(status)',['globalExit'],['global-exit (JobLevelTest)'],'')
row(S,'shmem_my_pe, shmem_n_pes','s.myPe(), s.nPes()',['myPe','nPes'],[],'')
row(S,'shmem_pe_accessible','s.peAccessible(pe)',['peAccessible'],[],'')
row(S,'shmem_addr_accessible','s.addrAccessible(obj, pe)',['addrAccessible'],[],'')
row(S,'shmem_ptr','s.ptr(obj, pe)',['ptr'],[],'')
row(S,'shmem_team_ptr','t.ptr(obj, pe)',[],['team.world-and-shared','team.invalid-handle'],'')
row(S,'shmem_info_get_version, shmem_info_get_name, SHMEM_MAX_NAME_LEN','s.infoGetVersion(), s.infoGetName(), ShmemVersion.MAX_NAME_LEN',['infoGetVersion','infoGetName'],['setup.max-name-len'],'')
S='Thread support'
row(S,'SHMEM_THREAD_*','ThreadLevel',['queryThread'],[],'the runner initializes with MULTIPLE; the ctx.thread-multiple cases share one context between threads')
S='Memory management'
row(S,'shmem_malloc','s.malloc',['malloc'],[],'')
row(S,'shmem_free','s.free',['free'],[],'')
row(S,'shmem_realloc','s.realloc',['realloc'],[],'')
row(S,'shmem_align','s.align',['align'],[],'')
row(S,'shmem_malloc_with_hints','s.mallocWithHints',['mallocWithHints'],[],'')
row(S,'shmem_calloc','s.calloc',['calloc'],[],'')
S='Teams'
row(S,'shmem_team_my_pe, shmem_team_n_pes','t.myPe(), t.nPes()',[],['team.world-and-shared','team.split-strided.*','team.split-2d.*','team.invalid-handle','team.invalid-from-split'],'')
row(S,'shmem_team_get_config','t.getConfig(mask)',['getConfig'],[],'')
row(S,'shmem_team_translate_pe','t.translatePe(pe, dest)',['translatePe'],[],'')
row(S,'shmem_team_split_strided','t.splitStrided(...)',['splitStrided'],[],'')
row(S,'shmem_team_split_2d','t.split2d(...)',['split2d'],[],'')
row(S,'team creation failure (C: nonzero, SHMEM_TEAM_INVALID)','ShmemException on every parent PE',[],['team.split-when-out-of-teams','team.split-strided.invalid-triplets','team.split-2d.bad-xrange'],'')
row(S,'shmem_team_destroy','t.close()',[],['team.create-destroy-cycles','team.bad-input','team.invalid-handle','team.split-strided.*'],'')
row(S,'SHMEM_TEAM_INVALID','ShmemTeam.INVALID',[],['team.invalid-handle','team.invalid-from-split'],'')
S='Communication management (contexts, sessions)'
row(S,'shmem_ctx_create','s.ctxCreate(options)',['ctxCreate'],[],'')
row(S,'shmem_team_create_ctx','t.createCtx(options)',['createCtx'],[],'')
row(S,'shmem_ctx_destroy','c.close()',[],['ctx.destroyed','ctx.many-contexts-increment-neighbour','ctx.invalid-handle','team.bad-input'],'')
row(S,'shmem_ctx_get_team','c.team(), s.team() (SHMEM_CTX_DEFAULT)',['team'],[],'')
row(S,'shmem_ctx_session_start, shmem_ctx_session_stop, shmem_ctx_session_config_t','c.sessionStart(...), c.sessionStop(), SessionConfig',['sessionStart','sessionStop'],[],'')
row(S,'SHMEM_CTX_INVALID','ShmemContext.INVALID',[],['ctx.invalid-handle','team.invalid-from-split'],'')
S='Remote memory access'
row(S,'shmem_put','s.put(...)',['put'],[],'')
row(S,'shmem_p','s.p(...)',['p'],[],'')
row(S,'shmem_iput','s.iput(...)',['iput'],[],'')
row(S,'shmem_ibput','s.ibput(...)',['ibput'],[],'')
row(S,'shmem_get','s.get(...)',['get'],[],'')
row(S,'shmem_g','s.g(...)',['g'],[],'')
row(S,'shmem_iget','s.iget(...)',['iget'],[],'')
row(S,'shmem_ibget','s.ibget(...)',['ibget'],[],'')
row(S,'shmem_putmem, shmem_getmem','s.putmem, s.getmem',['putmem','getmem'],[],'')
row(S,'shmem_put_nbi, shmem_putmem_nbi','s.putNbi, s.putmemNbi',['putNbi','putmemNbi'],[],'')
row(S,'shmem_get_nbi, shmem_getmem_nbi','s.getNbi, s.getmemNbi',['getNbi','getmemNbi'],[],'')
S='Atomic memory operations'
for c_,j,ms in [('shmem_atomic_fetch','atomicFetch',['atomicFetch']),('shmem_atomic_set','atomicSet',['atomicSet']),('shmem_atomic_compare_swap','atomicCompareSwap',['atomicCompareSwap']),('shmem_atomic_swap','atomicSwap',['atomicSwap']),('shmem_atomic_fetch_inc, shmem_atomic_inc','atomicFetchInc, atomicInc',['atomicFetchInc','atomicInc']),('shmem_atomic_fetch_add, shmem_atomic_add','atomicFetchAdd, atomicAdd',['atomicFetchAdd','atomicAdd']),('shmem_atomic_fetch_and/or/xor, shmem_atomic_and/or/xor','atomicFetchAnd/Or/Xor, atomicAnd/Or/Xor',['atomicFetchAnd','atomicFetchOr','atomicFetchXor','atomicAnd','atomicOr','atomicXor']),('shmem_atomic_*_nbi (fetch, compare_swap, swap, fetch_inc, fetch_add, fetch_and/or/xor)','atomic*Nbi',['atomicFetchNbi','atomicCompareSwapNbi','atomicSwapNbi','atomicFetchIncNbi','atomicFetchAddNbi','atomicFetchAndNbi','atomicFetchOrNbi','atomicFetchXorNbi'])]:
    row(S,c_,'s.'+j,ms,[],'')
S='Signaling operations'
row(S,'shmem_put_signal, shmem_put_signal_nbi','s.putSignal, s.putSignalNbi',['putSignal','putSignalNbi'],[],'')
row(S,'shmem_signal_fetch','s.signalFetch',['signalFetch'],[],'')
row(S,'shmem_signal_add, shmem_signal_set','s.signalAdd, s.signalSet',['signalAdd','signalSet'],[],'')
row(S,'shmem_signal_wait_until','s.signalWaitUntil',['signalWaitUntil'],[],'')
S='Collective routines'
row(S,'shmem_barrier_all','s.barrierAll()',['barrierAll'],[],'used by most cases; tested directly by the order.* cases')
row(S,'shmem_sync, shmem_team_sync, shmem_sync_all','t.sync(), s.syncAll()',['sync','syncAll'],[],'')
row(S,'shmem_alltoall, shmem_alltoallmem','t.alltoall, t.alltoallmem',['alltoall','alltoallmem'],[],'')
row(S,'shmem_alltoalls, shmem_alltoallsmem','t.alltoalls, t.alltoallsmem',['alltoalls','alltoallsmem'],[],'')
row(S,'shmem_broadcast, shmem_broadcastmem','t.broadcast, t.broadcastmem',['broadcast','broadcastmem'],[],'')
row(S,'shmem_collect, shmem_collectmem','t.collect, t.collectmem',['collect','collectmem'],[],'')
row(S,'shmem_fcollect, shmem_fcollectmem','t.fcollect, t.fcollectmem',['fcollect','fcollectmem'],[],'')
row(S,'shmem_TYPE_{and,or,xor}_reduce','t.andReduce/orReduce/xorReduce',['andReduce','orReduce','xorReduce'],[],'')
row(S,'shmem_TYPE_{max,min,sum,prod}_reduce','t.maxReduce/minReduce/sumReduce/prodReduce',['maxReduce','minReduce','sumReduce','prodReduce'],[],'')
row(S,'shmem_complexf_{sum,prod}_reduce, shmem_complexd_{sum,prod}_reduce','t.complexSumReduce/complexProdReduce (float[]/double[] of (re, im) pairs)',['complexSumReduce','complexProdReduce'],[],'')
row(S,'shmem_TYPE_sum_inscan, shmem_TYPE_sum_exscan','t.sumInscan, t.sumExscan',['sumInscan','sumExscan'],[],'')
S='Point-to-point synchronization'
row(S,'shmem_wait_until','s.waitUntil',['waitUntil'],[],'')
row(S,'shmem_wait_until_all/any/some','s.waitUntilAll/Any/Some',['waitUntilAll','waitUntilAny','waitUntilSome'],[],'')
row(S,'shmem_wait_until_all/any/some_vector','s.waitUntilAllVector/AnyVector/SomeVector',['waitUntilAllVector','waitUntilAnyVector','waitUntilSomeVector'],[],'')
row(S,'shmem_test','s.test',['test'],[],'')
row(S,'shmem_test_all/any/some','s.testAll/Any/Some',['testAll','testAny','testSome'],[],'')
row(S,'shmem_test_all/any/some_vector','s.testAllVector/AnyVector/SomeVector',['testAllVector','testAnyVector','testSomeVector'],[],'')
row(S,'SHMEM_CMP_* on unsigned types','Cmp.UGT/UGE/ULT/ULE',[],['sync.unsigned-cmp.*','sync.unsigned-wait.*','signal.unsigned-wait'],'')
S='Memory ordering'
row(S,'shmem_fence','s.fence(), c.fence()',['fence'],[],'')
row(S,'shmem_quiet','s.quiet(), c.quiet()',['quiet'],[],'')
row(S,'shmem_pe_quiet','s.peQuiet(pes...)',['peQuiet'],[],'')
S='Distributed locking'
row(S,'shmem_set_lock, shmem_test_lock, shmem_clear_lock','s.setLock, s.testLock, s.clearLock',['setLock','testLock','clearLock'],[],'')
S='Java conveniences (no routine of their own)'
row(S,'shmem_TYPE_{sum,prod,max,min,and,or,xor}_reduce with nreduce 1, on one value','t.sumReduce(value), t.maxReduce(value), ... (long, int, double; and/or/xor: long, int)',[],['coll.scalar-reduce.*','coll.scalar-reduce.between-collectives','coll.scalar-reduce.on-split-teams','alloc.collectives'],'')
row(S,'local copies between a symmetric object and a local buffer (C: memcpy)','obj.get(index, dest, destIndex, nelems), obj.set(index, source, sourceIndex, nelems)',[],['array.bulk-copy.*','bad.bulk-copy-arguments','alloc.rma-amo'],'')
out=[]
cur=None
for sec,c_,j,cs,note in R:
    if sec!=cur:
        out.append(f'\n### {sec}\n\n| routine | Java | cases |\n|---|---|---|')
        cur=sec
    shown=cs if len(cs) <= 12 else cs[:12]
    listed=', '.join(f'`{x}`' for x in shown) if cs else '**none**'
    if len(cs) > 12: listed += f' and {len(cs)-12} more'
    if note: listed += f' ({note})'
    out.append(f'| `{c_}` | `{j}` | {listed} |')
table='\n'.join(out)+'\n'
readme=os.path.join(HERE,'README.md')
text=open(readme).read()
BEGIN='<!-- coverage: generated by coverage.py -->'
END='<!-- end of coverage -->'
if '--print' in sys.argv or BEGIN not in text:
    print(table)
else:
    a=text.index(BEGIN)+len(BEGIN); b=text.index(END)
    open(readme,'w').write(text[:a]+'\n'+table+'\n'+text[b:])
    print('updated', readme)
