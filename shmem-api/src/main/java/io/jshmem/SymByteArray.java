package io.jshmem;

/** A symmetric array of {@code byte}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymByteArray extends SymArray<byte[]> {
    /** Reads element {@code index} of this PE's copy. */
    byte get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, byte value);
}
