package io.chiplet.spark.executor;

import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.topology.ExecutorChiplets;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.chiplet.spark.topology.ExecutorTopologies.chiplet;
import static io.chiplet.spark.topology.ExecutorTopologies.topology;
import static org.assertj.core.api.Assertions.assertThat;

class ExecutorChipletsTest
{
    private static final long MIB = 1L << 20;
    private static final Topology FOUR_CHIPLETS = topology(CpuSet.range(0, 15), List.of(
            chiplet(0, CpuSet.range(0, 3), 32 * MIB), chiplet(1, CpuSet.range(4, 7), 32 * MIB),
            chiplet(2, CpuSet.range(8, 11), 32 * MIB), chiplet(3, CpuSet.range(12, 15), 32 * MIB)));

    @Test
    void anExecutorWithTheHostsCoresOwnsTheHost(@TempDir Path temp)
    {
        try (ExecutorChiplets share = ExecutorChiplets.claim(FOUR_CHIPLETS, 16, "1", temp, LeaseCoordinator.NONE)) {
            assertThat(share.ownsHost()).isTrue();
            assertThat(share.topology()).isEqualTo(FOUR_CHIPLETS);
        }
    }

    @Test
    void executorsOnOneHostLeaseJustEnoughChipletsAndDifferentOnes(@TempDir Path temp)
            throws Exception
    {
        try (ExecutorChiplets first = ExecutorChiplets.claim(FOUR_CHIPLETS, 6, "1", temp.resolve("leases"), LeaseCoordinator.NONE)) {
            assertThat(first.ownsHost()).isFalse();
            // 6 cores need two 4-core chiplets.
            assertThat(first.topology().chiplets()).extracting(Chiplet::id).containsExactly(0, 1);
            assertThat(first.topology().allowed()).isEqualTo(CpuSet.range(0, 7));
            assertThat(first.description()).startsWith("leased chiplet 0 (CPUs 0-3): exclusive, chiplet 1");
            // Another JVM would lease 2 and 3; this one may open the directory once, so the second falls back to the split.
            try (ExecutorChiplets second = ExecutorChiplets.claim(FOUR_CHIPLETS, 4, "3", temp.resolve("leases"), LeaseCoordinator.NONE)) {
                assertThat(second.topology().chiplets()).extracting(Chiplet::id).containsExactly(3);
                assertThat(second.description()).contains("by executor id 3").contains("already open");
            }
        }
        // Released: the next executor leases chiplet 0 again.
        try (ExecutorChiplets again = ExecutorChiplets.claim(FOUR_CHIPLETS, 2, "9", temp.resolve("leases"), LeaseCoordinator.NONE)) {
            assertThat(again.topology().chiplets()).extracting(Chiplet::id).containsExactly(0);
        }
    }

    @Test
    void anUnusableLeaseDirectorySplitsByExecutorId(@TempDir Path temp)
            throws Exception
    {
        Path notADirectory = Files.writeString(temp.resolve("file"), "x").resolve("leases");
        for (int id = 0; id < 4; id++) {
            try (ExecutorChiplets share = ExecutorChiplets.claim(FOUR_CHIPLETS, 4, Integer.toString(id), notADirectory, LeaseCoordinator.NONE)) {
                assertThat(share.topology().chiplets()).extracting(Chiplet::id).containsExactly(id);
                assertThat(share.description()).contains("lease directory " + notADirectory + " not usable");
            }
        }
    }

    @Test
    void autoModeFollowsWhatTheExecutorSees()
    {
        assertThat(ExecutorMachine.resolveMode(PlacementMode.AUTO, PlacementDomain.of(FOUR_CHIPLETS), 16, "1")).isEqualTo(PlacementMode.TASK);
        assertThat(ExecutorMachine.resolveMode(PlacementMode.AUTO, PlacementDomain.of(FOUR_CHIPLETS), 4, "1")).isEqualTo(PlacementMode.EXECUTOR);
        assertThat(ExecutorMachine.resolveMode(PlacementMode.AUTO, PlacementDomain.of(FOUR_CHIPLETS), 6, "1")).isEqualTo(PlacementMode.TASK);
        assertThat(ExecutorMachine.resolveMode(PlacementMode.TASK, PlacementDomain.of(FOUR_CHIPLETS), 1, "1")).isEqualTo(PlacementMode.TASK);
        // local[1]: the one process is the whole application, driver included.
        assertThat(ExecutorMachine.resolveMode(PlacementMode.AUTO, PlacementDomain.of(FOUR_CHIPLETS), 1, "driver")).isEqualTo(PlacementMode.TASK);
    }
}
