package io.jshmem;

/** A symmetric array of {@code long}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymLongArray extends SymArray<long[]> {
    /** Reads element {@code index} of this PE's copy. */
    long get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, long value);
}
