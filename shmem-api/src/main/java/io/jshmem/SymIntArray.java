package io.jshmem;

/** A symmetric array of {@code int}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymIntArray extends SymArray<int[]> {
    /**
     * Reads element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @return the element's value on this PE
     */
    int get(long index);

    /**
     * Writes element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @param value the value to store
     */
    void set(long index, int value);
}
