package io.jshmem;

/** The two teams {@link ShmemTeam#split2d} returns to each PE: its row (x) and its column (y). */
public record TeamPair(ShmemTeam xTeam, ShmemTeam yTeam) {
}
