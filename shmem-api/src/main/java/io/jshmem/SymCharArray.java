package io.jshmem;

/** A symmetric array of {@code char}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymCharArray extends SymArray<char[]> {
    /** Reads element {@code index} of this PE's copy. */
    char get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, char value);
}
