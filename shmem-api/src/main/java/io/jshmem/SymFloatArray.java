package io.jshmem;

/** A symmetric array of {@code float}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymFloatArray extends SymArray<float[]> {
    /** Reads element {@code index} of this PE's copy. */
    float get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, float value);
}
