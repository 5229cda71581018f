/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import java.util.ArrayList;
import java.util.List;

/** Every conformance case, in the order the runner runs them. */
public final class AllCases {
    private AllCases() {
    }

    public static List<Case> all() {
        List<Case> all = new ArrayList<>();
        all.addAll(SetupCases.cases());
        all.addAll(MemoryCases.cases());
        all.addAll(RmaCases.cases());
        all.addAll(AmoCases.cases());
        all.addAll(SyncCases.cases());
        all.addAll(OrderingCases.cases());
        all.addAll(TeamCases.cases());
        all.addAll(CollectiveCases.cases());
        all.addAll(BackToBackCases.cases());
        all.addAll(ContextSignalLockCases.cases());
        all.addAll(BadInputCases.cases());
        all.addAll(SegmentCases.cases());
        all.addAll(Spec16Cases.cases());
        all.addAll(ZeroLengthCases.cases());
        all.addAll(ConvenienceCases.cases());
        all.addAll(AllocationCases.cases());
        return List.copyOf(all);
    }

    /** The names of every case, in order. */
    public static List<String> names() {
        return all().stream().map(Case::name).toList();
    }
}
