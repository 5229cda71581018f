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
 */
public interface ShmemTeam extends AutoCloseable {

    /** shmem_team_my_pe: this PE's number in the team. */
    int myPe();

    /** shmem_team_n_pes: the team's size. */
    int nPes();

    /** shmem_team_get_config: the configuration (the fields selected by {@code configMask}). */
    TeamConfig getConfig(long configMask);

    /** shmem_team_translate_pe: the number in {@code destTeam} of this team's PE {@code pe}, or -1 if it is not a member. */
    int translatePe(int pe, ShmemTeam destTeam);

    /**
     * shmem_team_split_strided: collective over this team; the new team holds this team's PEs
     * {@code start, start+stride, ...} ({@code size} of them). Returns empty on PEs that are not
     * members (SHMEM_TEAM_INVALID).
     */
    Optional<ShmemTeam> splitStrided(int start, int stride, int size, TeamConfig config, long configMask);

    /**
     * shmem_team_split_2d: collective over this team; arranges its PEs in a grid with rows of
     * {@code xRange} PEs and returns this PE's row team (x) and column team (y).
     */
    TeamPair split2d(int xRange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask);

    /** shmem_team_create_ctx: a context whose PE numbers are this team's. */
    ShmemContext createCtx(long options);

    /** shmem_team_ptr: a direct view of {@code object} on team PE {@code pe} if it shares memory with this PE. */
    Optional<MemorySegment> ptr(SymArray<?> object, int pe);

    /** shmem_team_destroy: releases the team (not the predefined ones). */
    @Override
    void close();

    // ---------------------------------------------------------------- collectives

    /** shmem_team_sync / shmem_sync(team): waits for every member; does not complete outstanding operations. */
    void sync();

    /** shmem_broadcast: copies {@code source[0..nelems)} on team PE {@code root} to {@code dest} on every member (the root too). */
    <A> void broadcast(SymArray<A> dest, SymArray<A> source, long nelems, int root);

    /** shmem_broadcastmem: like broadcast, counted in bytes. */
    void broadcastmem(SymArray<?> dest, SymArray<?> source, long nbytes, int root);

    /** shmem_collect: concatenates each member's {@code source[0..nelems)} (nelems may differ per PE) into {@code dest}, in team order. */
    <A> void collect(SymArray<A> dest, SymArray<A> source, long nelems);

    /** shmem_collectmem. */
    void collectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /** shmem_fcollect: like collect with the same {@code nelems} on every member. */
    <A> void fcollect(SymArray<A> dest, SymArray<A> source, long nelems);

    /** shmem_fcollectmem. */
    void fcollectmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /** shmem_alltoall: block j of {@code source} (nelems elements) on PE i goes to block i of {@code dest} on PE j. */
    <A> void alltoall(SymArray<A> dest, SymArray<A> source, long nelems);

    /** shmem_alltoallmem. */
    void alltoallmem(SymArray<?> dest, SymArray<?> source, long nbytes);

    /** shmem_alltoalls: like alltoall with element strides {@code dst} (in dest) and {@code sst} (in source). */
    <A> void alltoalls(SymArray<A> dest, SymArray<A> source, long dst, long sst, long nelems);

    /** shmem_alltoallsmem: strided alltoall of bytes. */
    void alltoallsmem(SymArray<?> dest, SymArray<?> source, long dst, long sst, long nbytes);

    /** shmem_TYPE_and_reduce (integral types). dest and source may be the same array. */
    <A> void andReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_or_reduce (integral types). */
    <A> void orReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_xor_reduce (integral types). */
    <A> void xorReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_max_reduce ({@code char} compares unsigned). */
    <A> void maxReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_min_reduce. */
    <A> void minReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_sum_reduce (integral types wrap around as in Java). */
    <A> void sumReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_prod_reduce. */
    <A> void prodReduce(SymArray<A> dest, SymArray<A> source, long nreduce);

    /** shmem_TYPE_sum_inscan: dest on team PE k = source summed over PEs 0..k, element-wise. */
    <A> void sumInscan(SymArray<A> dest, SymArray<A> source, long nelems);

    /** shmem_TYPE_sum_exscan: dest on team PE k = source summed over PEs 0..k-1 (zero on PE 0). */
    <A> void sumExscan(SymArray<A> dest, SymArray<A> source, long nelems);
}
