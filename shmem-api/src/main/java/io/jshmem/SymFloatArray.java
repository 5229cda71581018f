package io.jshmem;

/** A symmetric array of {@code float}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymFloatArray extends SymArray<float[]> {
    /**
     * Reads element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @return the element's value on this PE
     */
    float get(long index);

    /**
     * Writes element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @param value the value to store
     */
    void set(long index, float value);
}
