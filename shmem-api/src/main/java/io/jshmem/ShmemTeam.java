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
     *
     * @param object a symmetric object
     * @param pe a PE number
     * @return a segment mapping {@code object} on {@code pe} for plain loads and stores, or empty when it is not mapped directly
     */
    Optional<MemorySegment> ptr(SymArray<?> object, int pe);

    /** shmem_team_destroy: releases the team (not the predefined ones); does nothing on {@link #INVALID}. */
    @Override
    void close();

    // ---------------------------------------------------------------- collectives

    /** shmem_team_sync / shmem_sync(team): waits for every member; does not complete outstanding operations. */
    void sync();

    /**
     * shmem_broadcast: copies {@code source[0..nelems)} on team PE {@code root} to {@code dest} on every member (the root too).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     * @param root the PE, as a number in this team, whose {@code source} is broadcast
     */
    <A> void broadcast(SymArray<A> dest, SymArray<A> source, long nelems, int root);

    /**
     * shmem_broadcastmem: like broadcast, counted in bytes.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     * @param root the PE, as a number in this team, whose {@code source} is broadcast
     */
    void broadcastmem(SymArray<?> dest, SymArray<?> source, long nbytes, int root);

    /**
     * shmem_collect: concatenates each member's {@code source[0..nelems)} (nelems may differ per PE) into {@code dest}, in team order.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     */
    <A> void collect(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * shmem_collectmem.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     */
    void collectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * shmem_fcollect: like collect with the same {@code nelems} on every member.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     */
    <A> void fcollect(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * shmem_fcollectmem.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     */
    void fcollectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * shmem_alltoall: block j of {@code source} (nelems elements) on PE i goes to block i of {@code dest} on PE j.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     */
    <A> void alltoall(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * shmem_alltoallmem.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     */
    void alltoallmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /**
     * shmem_alltoalls: like alltoall with element strides {@code dst} (in dest) and {@code sst} (in source).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param dst the stride between the elements of {@code dest}, in elements
     * @param sst the stride between the elements of {@code source}, in elements
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     */
    <A> void alltoalls(SymArray<A> dest, SymArray<A> source, long dst, long sst, long nelems);

    /**
     * shmem_alltoallsmem: strided alltoall of bytes.
     *
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param dst the stride between the elements of {@code dest}, in elements
     * @param sst the stride between the elements of {@code source}, in elements
     * @param nbytes the number of bytes (from each PE, for collectmem, fcollectmem and alltoallmem)
     */
    void alltoallsmem(SymArray<?> dest, SymArray<?> source, long dst, long sst, long nbytes);

    /**
     * shmem_TYPE_and_reduce (integral types). dest and source may be the same array.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void andReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_or_reduce (integral types).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void orReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_xor_reduce (integral types).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void xorReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_max_reduce ({@code char} compares unsigned).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void maxReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_min_reduce.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void minReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_sum_reduce (integral types wrap around as in Java).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
     */
    <A> void sumReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_prod_reduce.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nreduce the number of elements to reduce
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
     */
    <A> void complexProdReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /**
     * shmem_TYPE_sum_inscan: dest on team PE k = source summed over PEs 0..k, element-wise.
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
     */
    <A> void sumInscan(SymArray<A> dest, SymArray<A> source, long nelems);

    /**
     * shmem_TYPE_sum_exscan: dest on team PE k = source summed over PEs 0..k-1 (zero on PE 0).
     *
     * @param <A> the Java array type of the elements, e.g. {@code long[]}
     * @param dest the symmetric destination object
     * @param source the symmetric source object
     * @param nelems the number of elements (from each PE, for collect, fcollect and alltoall)
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
