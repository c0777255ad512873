package io.chiplet.trino.connector;

import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.Snapshots;
import io.chiplet.trino.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NodeRuntimeTest
{
    @Test
    void badSettingLeavesTheCatalogUpWithOneWarning()
    {
        try (LogCapture log = LogCapture.of("io.chiplet.trino");
                NodeRuntime runtime = NodeRuntime.start("chiplet", "node-1", Map.of("connector.name", "chiplet", "chiplet.rescan-interval", "often"), TaskRole.WORKER)) {
            String expected = "chiplet.rescan-interval=often is not usable: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms";
            assertThat(runtime.problem()).contains(expected);
            assertThat(runtime.governingCatalog()).isEmpty();
            assertThat(log.warnings()).containsExactly("Chiplet catalog chiplet on node node-1: no thread placement, Trino runs as without it: " + expected);
        }
    }

    @Test
    void unreadableSnapshotIsNamed(@TempDir Path temp)
    {
        Path missing = temp.resolve("no-such-snapshot");
        try (LogCapture log = LogCapture.of("io.chiplet.trino");
                NodeRuntime runtime = NodeRuntime.start("chiplet", "node-1", Map.of(TrinoSettings.FS_ROOT, missing.toString()), TaskRole.WORKER)) {
            assertThat(runtime.problem()).hasValueSatisfying(problem -> assertThat(problem).startsWith("cannot read the topology from chiplet.fs-root=" + missing + ": "));
            assertThat(runtime.topology()).isEmpty();
            assertThat(log.warnings()).hasSize(1);
        }
    }

    @Test
    void disabledReadsTheTopologyAndPinsNothing(@TempDir Path temp)
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        try (LogCapture log = LogCapture.of("io.chiplet.trino");
                NodeRuntime runtime = NodeRuntime.start("chiplet", "node-1", Map.of(TrinoSettings.FS_ROOT, snapshot.toString(), TrinoSettings.ENABLED, "false"), TaskRole.WORKER)) {
            assertThat(runtime.topology()).hasValueSatisfying(topology -> assertThat(topology.chiplets()).hasSize(2));
            assertThat(runtime.problem()).contains("chiplet.enabled=false");
            assertThat(runtime.governingCatalog()).isEmpty();
            assertThat(log.warnings()).isEmpty();
        }
    }

    @Test
    void startsTheAgentOnTheSnapshotsChiplets(@TempDir Path temp)
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        Map<String, String> properties = Map.of(TrinoSettings.FS_ROOT, snapshot.toString(), TrinoSettings.LEASE_DIR, temp.resolve("leases").toString());
        try (NodeRuntime runtime = NodeRuntime.start("chiplet", "node-1", properties, TaskRole.WORKER)) {
            assertThat(runtime.problem()).isEmpty();
            assertThat(runtime.governingCatalog()).contains("chiplet");
            assertThat(ChipletRecordSetProvider.rows(RuntimeTable.STATUS, runtime, List.of()))
                    .containsExactly(java.util.Arrays.asList("node-1", "chiplet", true, "auto", "sysfs:" + snapshot, 0L, null, "0-1", 0L, 2L, 2L));
            assertThat(ChipletRecordSetProvider.rows(RuntimeTable.TOPOLOGY, runtime, List.of()))
                    .extracting(row -> row.get(1) + ":" + row.get(2))
                    .containsExactly("0:0", "1:1");
        }
    }

    @Test
    void aCoordinatorThatRunsNoTasksTakesNoLeaseAndPinsNothing(@TempDir Path temp)
            throws Exception
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        Path leases = temp.resolve("leases");
        Map<String, String> properties = Map.of(TrinoSettings.FS_ROOT, snapshot.toString(), TrinoSettings.LEASE_DIR, leases.toString());
        TaskRole role = TaskRole.of(true, java.util.Optional.of(false));
        try (LogCapture log = LogCapture.of("io.chiplet.trino");
                NodeRuntime runtime = NodeRuntime.start("chiplet", "coordinator", properties, role)) {
            String why = "this node is a coordinator that runs no tasks (node-scheduler.include-coordinator=false): no chiplet lease, nothing pinned";
            assertThat(runtime.problem()).contains(why);
            assertThat(runtime.governingCatalog()).isEmpty();
            assertThat(leases).doesNotExist();
            assertThat(ChipletRecordSetProvider.rows(RuntimeTable.STATUS, runtime, List.of()).getFirst().subList(0, 3))
                    .containsExactly("coordinator", "chiplet", false);
            assertThat(log.warnings()).isEmpty();
            assertThat(log.messages()).contains("Chiplet catalog chiplet on node coordinator: " + why);
        }
    }

    @Test
    void tooManyChipletsPerNodeAreCappedWithOneWarningNamingTheSetting(@TempDir Path temp)
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        Map<String, String> properties = Map.of(TrinoSettings.FS_ROOT, snapshot.toString(), TrinoSettings.LEASE_DIR, temp.resolve("leases").toString(),
                TrinoSettings.CHIPLETS_PER_NODE, "5");
        try (LogCapture log = LogCapture.of("io.chiplet.trino");
                NodeRuntime runtime = NodeRuntime.start("chiplet", "node-1", properties, TaskRole.WORKER)) {
            assertThat(runtime.problem()).isEmpty();
            assertThat(log.warnings()).containsExactly(
                    "Chiplet placement on node node-1: chiplet.chiplets-per-node: asked for 5 chiplets but this process may use 2: leasing 2");
        }
    }

    @Test
    void theSetupLeasesWhatChipletsPerNodeAsksForWithinTheShare(@TempDir Path temp)
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        io.chiplet.topology.Topology topology = io.chiplet.discovery.TopologyDiscovery.discover(io.chiplet.topology.DiscoveryOptions.fsRoot(snapshot));
        PlacementSettings one = ((TrinoSettings.Valid) TrinoSettings.parse(Map.of(TrinoSettings.CHIPLETS_PER_NODE, "1"))).settings();
        NodeSetup setup = NodeSetup.of(one, topology, io.chiplet.topology.CpuSet.range(0, 1));
        assertThat(setup.leases().chiplets()).isEqualTo(1);
        assertThat(setup.leases().capped()).isEmpty();
        assertThat(setup.share().ids()).containsExactly(0, 1);
        // Trino's defaults: memory.bind on, dram; this machine has one node, so core's rule binds nothing.
        assertThat(setup.memory().binds()).isFalse();
        // Only the CPUs the process may use: CPU 1 alone leaves chiplet 1.
        PlacementSettings all = ((TrinoSettings.Valid) TrinoSettings.parse(Map.of())).settings();
        assertThat(NodeSetup.of(all, topology, io.chiplet.topology.CpuSet.of(1)).share().ids()).containsExactly(1);
        assertThat(NodeSetup.of(all, topology, io.chiplet.topology.CpuSet.of(1)).leases().chiplets()).isEqualTo(1);
    }
}
