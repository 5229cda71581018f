package io.jshmem;

/** A symmetric array of {@code short}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymShortArray extends SymArray<short[]> {
    /** Reads element {@code index} of this PE's copy. */
    short get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, short value);
}
