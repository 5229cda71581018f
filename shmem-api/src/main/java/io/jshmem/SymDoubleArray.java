package io.jshmem;

/** A symmetric array of {@code double}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymDoubleArray extends SymArray<double[]> {
    /** Reads element {@code index} of this PE's copy. */
    double get(long index);

    /** Writes element {@code index} of this PE's copy. */
    void set(long index, double value);
}
