package io.jshmem;

/** A symmetric array of {@code int}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymIntArray extends SymArray<int[]> {
    /** Reads element {@code index} of this PE's copy. */
    int get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, int value);
}
