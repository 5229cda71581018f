package io.jshmem;

/** A symmetric array of {@code short}; {@link #get}/{@link #set} access this PE's copy. */
public interface SymShortArray extends SymArray<short[]> {
    /**
     * Reads element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @return the element's value on this PE
     */
    short get(long index);

    /**
     * Writes element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @param value the value to store
     */
    void set(long index, short value);
}
