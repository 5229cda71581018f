/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * The two teams {@link ShmemTeam#split2d} returns to each PE: its row (x) and its column (y).
 *
 * @param xTeam the team of this PE's row (the PEs with the same y coordinate)
 * @param yTeam the team of this PE's column (the PEs with the same x coordinate)
 */
public record TeamPair(ShmemTeam xTeam, ShmemTeam yTeam) {
}
