/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * A team (shmem_team_t): an ordered set of PEs with its own numbering (0..nPes()-1) over which
 * collectives run. {@link Shmem#teamWorld()} and {@link Shmem#teamShared()} are predefined; new
 * teams come from splitting one. Closing a team is {@code shmem_team_destroy}.
 *
 * <p>Collectives are called by every member with the same arguments. Their {@code dest} and
 * {@code source} are symmetric arrays used from element 0; the library synchronizes internally, so
 * no barrier is needed before or after one. PE numbers (roots, translatePe) are team-relative.
 *
 * <p><b>Completion and ordering.</b> A collective returns on a member once that member's part is
 * done: its {@code dest} holds its result and its {@code source} may be changed. Members leave at
 * different times (a broadcast's root may leave before the others have the data). A collective
 * neither completes nor orders this PE's outstanding puts and AMOs: data that other PEs put into a
 * {@code source} must be complete before the call (the writers' {@link ShmemCtx#quiet()}, then a
 * synchronization such as {@link Shmem#barrierAll()}). The collectives of one team happen in the same
 * order on every member; those of different teams are independent of one another. A member blocked
 * in a collective throws {@link JobAbortedException} when the job is being aborted; wrong arguments
 * (a dead team or object, a type mismatch, data that does not fit) throw {@link ShmemException},
 * naming this PE, before anything moves; with {@code SHMEM_DEBUG} so do arguments that differ
 * between members (on every member).
 *
 * <p><b>Scalar reductions</b> ({@code long sumReduce(long)}, {@code double maxReduce(double)}, ...)
 * are Java conveniences: one value per member reduced to all members, what
 * {@code shmem_TYPE_OP_reduce} with {@code nreduce} 1 computes, without the two symmetric arrays C
 * needs. Collective like every reduction: every member calls the same method (operator and type)
 * at the same point of its sequence of collectives on the team, and each member returns when it
 * has the result. The team's internal memory carries the value: no symmetric allocation, and on
 * one node no Java allocation once compiled. Calls that do not match (another collective,
 * operator or type on some member, or the array form of the reduction) end the job as for any
 * collective (on one node the message names both PEs).
 */
public interface ShmemTeam extends AutoCloseable {

    /**
     * SHMEM_TEAM_INVALID: a handle referencing no team, what a split gives non-members in C. The
     * routines for which OpenSHMEM defines it accept it: {@link #myPe()}, {@link #nPes()} and
     * {@link #translatePe} (either team) return -1, {@link #getConfig}, {@link #splitStrided} and
     * {@link #ptr} return empty, {@link #split2d} returns a pair of invalid teams,
     * {@link #createCtx} returns {@link ShmemContext#INVALID}, {@link #close()} does nothing.
     * Collectives on it are undefined in OpenSHMEM and throw {@link ShmemException}.
     */
    ShmemTeam INVALID = InvalidHandles.newTeam();

    /**
     * shmem_team_my_pe: this PE's number in the team; -1 for {@link #INVALID}.
     *
     * @return this PE's number in the team, or -1 for {@link #INVALID}
     */
    int myPe();

    /**
     * shmem_team_n_pes: the team's size; -1 for {@link #INVALID}.
     *
     * @return the number of PEs in the team, or -1 for {@link #INVALID}
     */
    int nPes();

    /**
     * shmem_team_get_config: the configuration (the fields selected by {@code configMask}; the
     * defaults for the others, all of them when the mask is 0). Empty for {@link #INVALID} (C
     * returns nonzero and leaves the config untouched).
     *
     * @param configMask which fields to fill in (the TEAM_*_CONFIG bits)
     * @return the team's configuration, or empty for {@link #INVALID}
     */
    Optional<TeamConfig> getConfig(long configMask);

    /**
     * shmem_team_translate_pe: the number in {@code destTeam} of this team's PE {@code pe}; -1 if
     * it is not a member, if {@code pe} is not a PE of this team, or if either team is {@link #INVALID}.
     *
     * @param pe a PE number in this team
     * @param destTeam the team to translate to
     * @return the PE's number in {@code destTeam}, or -1 if it is not a member
     */
    int translatePe(int pe, ShmemTeam destTeam);

    /**
     * shmem_team_split_strided: collective over this team; the new team holds this team's PEs
     * {@code start, start+stride, ..., start+(size-1)*stride}, in that order. A negative stride lists
     * them in descending order; stride 0 is valid with size 1. Returns empty on PEs that are not
     * members (C: SHMEM_TEAM_INVALID with return 0), and on every PE when this team is
     * {@link #INVALID} (C: nonzero). A triplet that leaves this team (a member outside 0..nPes()-1,
     * size below 1, stride 0 with size above 1) throws {@link ShmemException} on every PE
     * (C: nonzero return).
     *
     * @param start the first member, as a PE number in this team
     * @param stride the distance between consecutive members, in PE numbers of this team
     * @param size the number of members
     * @param config the new team's configuration, or null for the defaults
     * @param configMask which fields of the configuration to use (the TEAM_*_CONFIG bits)
     * @return the new team on its members; empty on the other PEs of this team
     */
    Optional<ShmemTeam> splitStrided(int start, int stride, int size, TeamConfig config, long configMask);

    /**
     * shmem_team_split_2d: collective over this team; arranges its PEs in a grid with rows of
     * {@code xRange} PEs and returns this PE's row team (x) and column team (y). On {@link #INVALID}
     * returns {@code TeamPair(INVALID, INVALID)} (C: nonzero).
     *
     * @param xRange the number of PEs in a row (x) team
     * @param xConfig the row teams' configuration, or null
     * @param xMask which fields of {@code xConfig} to use
     * @param yConfig the column teams' configuration, or null
     * @param yMask which fields of {@code yConfig} to use
     * @return this PE's row (x) and column (y) teams
     */
    TeamPair split2d(int xRange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask);

    /**
     * shmem_team_create_ctx: a context whose PE numbers are this team's. On {@link #INVALID}
     * returns {@link ShmemContext#INVALID} (C: nonzero).
     *
     * @param options a bitwise or of the {@code Shmem.CTX_*} constants, 0 for none
     * @return the new context, or {@link ShmemContext#INVALID} when none can be created
     */
    ShmemContext createCtx(long options);

    /**
     * shmem_team_ptr: a direct view of {@code object} on team PE {@code pe} if it shares memory with
     * this PE; empty otherwise (C: a null pointer), and on {@link #INVALID}.
     * The segment is closed when the object is freed or reallocated, or the library finalized:
     * accesses through it then throw {@link IllegalStateException}.
     *
     * @param object a symmetric object
     * @param pe a PE number
     * @return a segment mapping {@code object} on {@code pe} for plain loads and stores, or empty when it is not mapped directly
     */
    Optional<MemorySegment> ptr(SymArray<?> object, int pe);

    /**
     * Destroys the team; OpenSHMEM {@code shmem_team_destroy}. Collective over the team: every
     * member calls it, after its last collective on the team. The contexts created on the team are
     * destroyed with it (their outstanding operations completed, as by {@link ShmemContext#close()}),
     * and its internal slot is freed for a later split; the team is then unusable (its routines
     * throw {@link ShmemException}). Closing it again, or after finalize, does nothing; so does
     * closing {@link #INVALID}.
     *
     * @throws ShmemException naming this PE, for {@link Shmem#teamWorld()} and
     *         {@link Shmem#teamShared()}, which cannot be destroyed
     */
    @Override
    void close();

    // ---------------------------------------------------------------- collectives

    /**
     * Waits until every member of this team has called it; OpenSHMEM {@code shmem_team_sync}
     * ({@code shmem_sync} with a team). Collective over the team.
     *
     * <p>Unlike {@link Shmem#barrierAll()} it does not complete this PE's outstanding puts and
     * AMOs: call {@link ShmemCtx#quiet()} first when the other members must see them once they
     * leave the sync. It orders the members' calls only: what a member did before the sync happened
     * before what the others do after it, for memory accesses that are complete.
     *
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see Shmem#syncAll()
     * @see Shmem#barrierAll()
     */
    void sync();

    /**
     * Copies {@code nelems} elements of {@code source} on team PE {@code root} into {@code dest} on
     * every member, the root included; OpenSHMEM {@code shmem_broadcast}
     * ({@code shmem_TYPE_broadcast}). Collective over the team: every member passes the same
     * {@code nelems} and {@code root}.
     *
     * <p>Returns on each member once its {@code dest} holds the data and its {@code source} may be
     * changed; the root may return before the others have received it. {@code source} is read only
     * on the root.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @param root the PE, as a number in this team, whose {@code source} is broadcast
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nelems} is negative or larger than either, or
     *         {@code root} is not a PE of this team, or (with {@code SHMEM_DEBUG}) if the members'
     *         arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #broadcastmem(SymArray, SymArray, long, int)
     * @see #fcollect(SymArray, SymArray, long)
     */
    <A> void broadcast(SymArray<A> dest, SymArray<A> source, long nelems, int root);

    /**
     * Like {@link #broadcast(SymArray, SymArray, long, int)} counted in bytes, whatever the
     * objects' element types; OpenSHMEM {@code shmem_broadcastmem}.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @param root the PE, as a number in this team, whose {@code source} is broadcast
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object,
     *         {@code nbytes} is negative or larger than either, or {@code root} is not a PE of this
     *         team, or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #broadcast(SymArray, SymArray, long, int)
     */
    void broadcastmem(SymArray<?> dest, SymArray<?> source, long nbytes, int root);

    /**
     * Concatenates every member's first {@code nelems} elements of {@code source} into {@code dest}
     * on every member, in team order; {@code nelems} may differ from member to member, and
     * {@code dest} must hold their sum; OpenSHMEM {@code shmem_collect}
     * ({@code shmem_TYPE_collect}). Collective over the team.
     *
     * <p>Returns on each member once its {@code dest} holds every member's block and its
     * {@code source} may be changed. {@link #fcollect} is faster when every member contributes the
     * same count.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, a count is negative, or the data does not fit them, or (with
     *         {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #fcollect(SymArray, SymArray, long)
     * @see #collectmem(SymArray, SymArray, long)
     */
    <A> void collect(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * Like {@link #collect(SymArray, SymArray, long)} counted in bytes (each member's
     * {@code nbytes} may differ); OpenSHMEM {@code shmem_collectmem}.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, a count
     *         is negative, or the data does not fit them, or (with {@code SHMEM_DEBUG}) if the
     *         members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #collect(SymArray, SymArray, long)
     */
    void collectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * Concatenates every member's first {@code nelems} elements of {@code source} into {@code dest}
     * on every member, in team order (member {@code i}'s block at element {@code i * nelems}), the
     * same {@code nelems} on every member; {@code dest} holds {@code nPes() * nelems} elements;
     * OpenSHMEM {@code shmem_fcollect} ({@code shmem_TYPE_fcollect}), an allgather. Collective over
     * the team.
     *
     * <p>Returns on each member once its {@code dest} holds every block and its {@code source} may
     * be changed.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, a count is negative, or the data does not fit them, or (with
     *         {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #collect(SymArray, SymArray, long)
     * @see #alltoall(SymArray, SymArray, long)
     */
    <A> void fcollect(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * Like {@link #fcollect(SymArray, SymArray, long)} counted in bytes; OpenSHMEM
     * {@code shmem_fcollectmem}.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, a count
     *         is negative, or the data does not fit them, or (with {@code SHMEM_DEBUG}) if the
     *         members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #fcollect(SymArray, SymArray, long)
     */
    void fcollectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * Exchanges blocks between all members: block {@code j} of {@code source} on member {@code i}
     * (elements {@code [j * nelems, (j + 1) * nelems)}) goes to block {@code i} of {@code dest} on
     * member {@code j}; both objects hold {@code nPes() * nelems} elements; OpenSHMEM
     * {@code shmem_alltoall} ({@code shmem_TYPE_alltoall}). Collective over the team, the same
     * {@code nelems} on every member.
     *
     * <p>Returns on each member once its {@code dest} holds every block sent to it and its
     * {@code source} may be changed.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, a count is negative, or the data does not fit them, or (with
     *         {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #alltoalls(SymArray, SymArray, long, long, long)
     * @see #alltoallmem(SymArray, SymArray, long)
     */
    <A> void alltoall(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * Like {@link #alltoall(SymArray, SymArray, long)} with blocks of {@code nbytes} bytes;
     * OpenSHMEM {@code shmem_alltoallmem}.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, a count
     *         is negative, or the data does not fit them, or (with {@code SHMEM_DEBUG}) if the
     *         members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #alltoall(SymArray, SymArray, long)
     */
    void alltoallmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * Like {@link #alltoall(SymArray, SymArray, long)} with strides: element {@code k} of the block
     * for member {@code j} is {@code source[(j * nelems + k) * sst]}, and it lands in
     * {@code dest[(i * nelems + k) * dst]} on member {@code j}; OpenSHMEM {@code shmem_alltoalls}
     * ({@code shmem_TYPE_alltoalls}). Collective over the team, the same arguments on every member.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param dst the stride between the elements of {@code dest}, in elements
     * @param sst the stride between the elements of {@code source}, in elements
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, a stride is below 1, a count is negative, or the strided data
     *         does not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #alltoall(SymArray, SymArray, long)
     */
    <A> void alltoalls(SymArray<A> dest, SymArray<A> source, long dst, long sst, long nelems);

    /**
     * Strided alltoall of bytes: like {@link #alltoalls(SymArray, SymArray, long, long, long)},
     * each block {@code nbytes} bytes; OpenSHMEM {@code shmem_alltoallsmem}.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param dst the stride between the elements of {@code dest}, in elements
     * @param sst the stride between the elements of {@code source}, in elements
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, a stride
     *         is below 1, a count is negative, or the strided data does not fit them, or (with
     *         {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #alltoalls(SymArray, SymArray, long, long, long)
     */
    void alltoallsmem(SymArray<?> dest, SymArray<?> source, long dst, long sst, long nbytes);

    /**
     * Element-wise bitwise and over the team: element {@code k} of {@code dest} on every member
     * becomes the bitwise and of element {@code k} of every member's {@code source}, for
     * {@code k < nreduce}; OpenSHMEM {@code shmem_and_reduce} ({@code shmem_TYPE_and_reduce}).
     * Integral types only ({@code byte}, {@code short}, {@code int}, {@code long}, {@code char}).
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, the type is not integral, {@code nreduce} is negative, or the
     *         elements do not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments
     *         differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #andReduce(long)
     */
    <A> void andReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise bitwise or over the team: element {@code k} of {@code dest} on every member
     * becomes the bitwise or of element {@code k} of every member's {@code source}, for
     * {@code k < nreduce}; OpenSHMEM {@code shmem_or_reduce} ({@code shmem_TYPE_or_reduce}).
     * Integral types only.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, the type is not integral, {@code nreduce} is negative, or the
     *         elements do not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments
     *         differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #orReduce(long)
     */
    <A> void orReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise bitwise exclusive or over the team: element {@code k} of {@code dest} on every
     * member becomes the bitwise exclusive or of element {@code k} of every member's
     * {@code source}, for {@code k < nreduce}; OpenSHMEM {@code shmem_xor_reduce}
     * ({@code shmem_TYPE_xor_reduce}). Integral types only.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, the type is not integral, {@code nreduce} is negative, or the
     *         elements do not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments
     *         differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #xorReduce(long)
     */
    <A> void xorReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise maximum over the team: element {@code k} of {@code dest} on every member becomes
     * the maximum of element {@code k} of every member's {@code source}, for {@code k < nreduce};
     * OpenSHMEM {@code shmem_max_reduce} ({@code shmem_TYPE_max_reduce}). {@code char} compares
     * unsigned; floating-point values compare as Java's {@code Math.max} does.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nreduce} is negative, or the elements do not fit them,
     *         or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #maxReduce(long)
     */
    <A> void maxReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise minimum over the team: element {@code k} of {@code dest} on every member becomes
     * the minimum of element {@code k} of every member's {@code source}, for {@code k < nreduce};
     * OpenSHMEM {@code shmem_min_reduce} ({@code shmem_TYPE_min_reduce}). {@code char} compares
     * unsigned; floating-point values compare as Java's {@code Math.min} does.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nreduce} is negative, or the elements do not fit them,
     *         or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #minReduce(long)
     */
    <A> void minReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise maximum over the team of integers read as unsigned of their width: OpenSHMEM
     * {@code shmem_max_reduce} on its unsigned types ({@code shmem_uchar_max_reduce},
     * {@code shmem_ushort_}, {@code shmem_uint_}, {@code shmem_ulong_}, {@code shmem_ulonglong_},
     * {@code shmem_uint8_}-{@code shmem_uint64_}, {@code shmem_size_max_reduce}), which Java's
     * signed {@code byte}, {@code short}, {@code int} and {@code long} hold bit for bit:
     * {@code -1} is the largest value. ({@code char} is unsigned already: as {@link #maxReduce}.)
     * Sums, products and the bitwise reductions need no unsigned form (the same bits result).
     *
     * <p>Collective over the team, as {@link #maxReduce}.
     *
     * @param <A> the Java array type of the elements: an integral one, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException as {@link #maxReduce}, and for {@code float} or {@code double} elements
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     */
    <A> void unsignedMaxReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise minimum over the team of integers read as unsigned of their width: OpenSHMEM
     * {@code shmem_min_reduce} on its unsigned types; see {@link #unsignedMaxReduce}.
     *
     * @param <A> the Java array type of the elements: an integral one, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException as {@link #minReduce}, and for {@code float} or {@code double} elements
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     */
    <A> void unsignedMinReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise sum over the team: element {@code k} of {@code dest} on every member becomes the
     * sum of element {@code k} of every member's {@code source}, for {@code k < nreduce}; OpenSHMEM
     * {@code shmem_sum_reduce} ({@code shmem_TYPE_sum_reduce}). Integral types wrap around as
     * Java's {@code +} does; floating-point values are added in team order, so every member gets
     * bitwise the same result.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nreduce} is negative, or the elements do not fit them,
     *         or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #sumReduce(long)
     */
    <A> void sumReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Element-wise product over the team: element {@code k} of {@code dest} on every member becomes
     * the product of element {@code k} of every member's {@code source}, for {@code k < nreduce};
     * OpenSHMEM {@code shmem_prod_reduce} ({@code shmem_TYPE_prod_reduce}). Integral types wrap
     * around as Java's {@code *} does; floating-point values are multiplied in team order, so every
     * member gets bitwise the same result.
     *
     * <p>Collective over the team: every member passes the same {@code nreduce}; each returns once
     * its {@code dest} holds the result and its {@code source} may be changed. {@code dest} and
     * {@code source} may be the same object (otherwise they must not overlap).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nreduce} is negative, or the elements do not fit them,
     *         or (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #prodReduce(long)
     */
    <A> void prodReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_complexf_sum_reduce, shmem_complexd_sum_reduce: the element-wise sum of complex
     * numbers held in {@code float[]} (complexf) or {@code double[]} (complexd) symmetric arrays
     * as interleaved (re, im) pairs: complex number {@code k} is elements {@code 2k} (real part)
     * and {@code 2k + 1} (imaginary part). dest and source may be the same array. Other element
     * types throw {@link ShmemException}.
     *
     * @param <A> the Java array type of the elements: {@code float[]} or {@code double[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of complex numbers to reduce (each two array elements)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, the
     *         element type is not {@code float} or {@code double}, {@code nreduce} is negative, or
     *         the pairs do not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments
     *         differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #sumReduce(SymArray, SymArray, long)
     */
    <A> void complexSumReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_complexf_prod_reduce, shmem_complexd_prod_reduce: the element-wise complex product,
     * {@code (a+bi)(c+di) = (ac-bd) + (ad+bc)i}, of (re, im) pairs as in
     * {@link #complexSumReduce}, combined in team order (so every member gets the same result).
     *
     * @param <A> the Java array type of the elements: {@code float[]} or {@code double[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of complex numbers to reduce (each two array elements)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, the
     *         element type is not {@code float} or {@code double}, {@code nreduce} is negative, or
     *         the pairs do not fit them, or (with {@code SHMEM_DEBUG}) if the members' arguments
     *         differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #complexSumReduce(SymArray, SymArray, long)
     */
    <A> void complexProdReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * Prefix sum over the team in team order: {@code dest} on team PE {@code k} becomes the sum of
     * {@code source} over team PEs {@code 0..k}, element-wise (an inclusive prefix sum); OpenSHMEM
     * {@code shmem_sum_inscan} ({@code shmem_TYPE_sum_inscan}), new in 1.6. Collective over the
     * team, the same {@code nelems} on every member; integral types wrap around as Java's {@code +}
     * does.
     *
     * <p>Returns on each member once its {@code dest} holds its prefix and its {@code source} may
     * be changed.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nelems} is negative, or the elements do not fit them, or
     *         (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #sumExscan(SymArray, SymArray, long)
     * @see #sumReduce(SymArray, SymArray, long)
     */
    <A> void sumInscan(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * Prefix sum over the team in team order: {@code dest} on team PE {@code k} becomes the sum of
     * {@code source} over team PEs {@code 0..k-1}, element-wise (an exclusive prefix sum; zero on
     * team PE 0); OpenSHMEM {@code shmem_sum_exscan} ({@code shmem_TYPE_sum_exscan}), new in 1.6.
     * Collective over the team, the same {@code nelems} on every member; integral types wrap around
     * as Java's {@code +} does.
     *
     * <p>Returns on each member once its {@code dest} holds its prefix and its {@code source} may
     * be changed.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @throws ShmemException naming this PE, on {@link #INVALID}, a destroyed team or after
     *         finalize, if {@code dest} or {@code source} is not a live symmetric object, their
     *         element types differ, {@code nelems} is negative, or the elements do not fit them, or
     *         (with {@code SHMEM_DEBUG}) if the members' arguments differ
     * @throws JobAbortedException if the job is being aborted while this PE waits for the others
     * @see #sumInscan(SymArray, SymArray, long)
     * @see #sumReduce(SymArray, SymArray, long)
     */
    <A> void sumExscan(SymArray<A> dest, SymArray<A> source, long nelems);

    // ---------------------------------------------------------------- scalar reductions (Java conveniences)

    /**
     * shmem_long_sum_reduce of one value (nreduce 1), as a Java convenience: the sum of
     * {@code value} over every member of this team, returned on every member. Integral values wrap around as Java's {@code +} does. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the sum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long sumReduce(long value);

    /**
     * shmem_int_sum_reduce of one value (nreduce 1), as a Java convenience: the sum of
     * {@code value} over every member of this team, returned on every member. Integral values wrap around as Java's {@code +} does. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the sum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int sumReduce(int value);

    /**
     * shmem_double_sum_reduce of one value (nreduce 1), as a Java convenience: the sum of
     * {@code value} over every member of this team, returned on every member. Floating-point values are combined in team order, so every member gets bitwise the same result. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the sum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    double sumReduce(double value);

    /**
     * shmem_long_prod_reduce of one value (nreduce 1), as a Java convenience: the product of
     * {@code value} over every member of this team, returned on every member. Integral values wrap around as Java's {@code *} does. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the product of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long prodReduce(long value);

    /**
     * shmem_int_prod_reduce of one value (nreduce 1), as a Java convenience: the product of
     * {@code value} over every member of this team, returned on every member. Integral values wrap around as Java's {@code *} does. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the product of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int prodReduce(int value);

    /**
     * shmem_double_prod_reduce of one value (nreduce 1), as a Java convenience: the product of
     * {@code value} over every member of this team, returned on every member. Floating-point values are combined in team order, so every member gets bitwise the same result. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the product of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    double prodReduce(double value);

    /**
     * shmem_long_max_reduce of one value (nreduce 1), as a Java convenience: the maximum of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the maximum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long maxReduce(long value);

    /**
     * shmem_int_max_reduce of one value (nreduce 1), as a Java convenience: the maximum of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the maximum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int maxReduce(int value);

    /**
     * shmem_double_max_reduce of one value (nreduce 1), as a Java convenience: the maximum of
     * {@code value} over every member of this team, returned on every member. Floating-point values are combined in team order, so every member gets bitwise the same result. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the maximum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    double maxReduce(double value);

    /**
     * shmem_long_min_reduce of one value (nreduce 1), as a Java convenience: the minimum of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the minimum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long minReduce(long value);

    /**
     * shmem_int_min_reduce of one value (nreduce 1), as a Java convenience: the minimum of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the minimum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int minReduce(int value);

    /**
     * shmem_double_min_reduce of one value (nreduce 1), as a Java convenience: the minimum of
     * {@code value} over every member of this team, returned on every member. Floating-point values are combined in team order, so every member gets bitwise the same result. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the minimum of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    double minReduce(double value);

    /**
     * shmem_long_and_reduce of one value (nreduce 1), as a Java convenience: the bitwise and of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise and of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long andReduce(long value);

    /**
     * shmem_int_and_reduce of one value (nreduce 1), as a Java convenience: the bitwise and of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise and of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int andReduce(int value);

    /**
     * shmem_long_or_reduce of one value (nreduce 1), as a Java convenience: the bitwise or of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise or of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long orReduce(long value);

    /**
     * shmem_int_or_reduce of one value (nreduce 1), as a Java convenience: the bitwise or of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise or of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int orReduce(int value);

    /**
     * shmem_long_xor_reduce of one value (nreduce 1), as a Java convenience: the bitwise exclusive or of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise exclusive or of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    long xorReduce(long value);

    /**
     * shmem_int_xor_reduce of one value (nreduce 1), as a Java convenience: the bitwise exclusive or of
     * {@code value} over every member of this team, returned on every member. Collective
     * and blocking, with no symmetric array (see <i>Scalar reductions</i> in the class comment).
     *
     * @param value this PE's value
     * @return the bitwise exclusive or of every member's value
     * @throws ShmemException on {@link #INVALID}, a destroyed team, or after finalize
     */
    int xorReduce(int value);
}
