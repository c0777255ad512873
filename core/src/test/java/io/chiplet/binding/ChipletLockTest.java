package io.chiplet.binding;

import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.ChipletLeases;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.TestTopologies;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ChipletLockTest
{
    @TempDir
    Path directory;

    @Test
    void leasesAChipletNarrowsTheShareAndReleasesItOnClose()
    {
        Topology topology = TestTopologies.dualEpyc7763();
        Path leases = directory.resolve("leases");
        MemoryBinding memory = MemoryBinding.of(topology, true, MemoryKind.DRAM);
        try (ChipletLock lock = ChipletLock.acquire(leases, PlacementDomain.of(topology), 2, memory)) {
            // free chiplets, lowest id first, then the first one's package
            assertThat(lock.share().ids()).containsExactly(0, 1);
            assertThat(lock.anyShared()).isFalse();
            assertThat(lock.share().shareCpus().toList()).isEqualTo("0-15,128-143");
            assertThat(lock.target()).isEqualTo(new WorkerPlacement(0, OptionalInt.empty(), Optional.of(CpuSet.parseList("0-15,128-143")), OptionalInt.of(0)));
            assertThat(lock.memoryNodesToBind()).containsExactly(0);
            assertThat(lock.lockFiles()).containsExactly(leases.toAbsolutePath().resolve("chiplet-0.lock"), leases.toAbsolutePath().resolve("chiplet-1.lock"));
        }
        // the plugins' enforcement names one preferred node, or none with several; exec's binds them all
        assertThat(MemoryEnforcement.PREFERRED.policyFor(new TreeSet<>(List.of(1)))).contains(MemoryPolicy.preferred(1));
        assertThat(MemoryEnforcement.PREFERRED.policyFor(new TreeSet<>(List.of(0, 1)))).isEmpty();
        assertThat(MemoryEnforcement.BOUND.policyFor(new TreeSet<>(List.of(0, 1)))).contains(MemoryPolicy.bind(List.of(0, 1)));
        try (ChipletLeases after = ChipletLeases.open(leases, topology.chiplets(), topology)) {
            assertThat(after.holders(0)).isZero();
            assertThat(after.holders(1)).isZero();
        }
    }

    /** A whole process on its lease (Spark's executor mode): the binder gets the lease's CPUs and node; closing unbinds, then releases. */
    @Test
    void bindsTheWholeProcessToTheLeaseAndUnbindsBeforeReleasing()
    {
        Topology topology = TestTopologies.dualEpyc7763();
        Path leases = directory.resolve("leases");
        RecordingProcessBinder binder = new RecordingProcessBinder(topology.allowed());
        ChipletLock lock = ChipletLock.acquire(leases, PlacementDomain.of(topology), 1, MemoryBinding.of(topology, true, MemoryKind.DRAM));
        try (lock) {
            lock.bindProcess(binder);
            assertThat(binder.events()).containsExactly("bind 0-7,128-135 node OptionalInt[0]");
            assertThatThrownBy(() -> lock.bindProcess(binder)).hasMessageContaining("bound a thread already");
        }
        assertThat(binder.events()).containsExactly("bind 0-7,128-135 node OptionalInt[0]", "unbind");
        assertThatThrownBy(() -> lock.bindProcess(binder)).hasMessageContaining("closed");
        // A given target (core's HostDivision.processPlacement) must bind CPUs, all on the leased chiplets.
        try (ChipletLock again = ChipletLock.acquire(leases, PlacementDomain.of(topology), 1, MemoryBinding.off(topology))) {
            assertThatThrownBy(() -> again.bindProcess(binder, WorkerPlacement.unbound(0))).hasMessageContaining("binds no CPUs");
            assertThatThrownBy(() -> again.bindProcess(binder, new WorkerPlacement(0, OptionalInt.of(1), Optional.of(CpuSet.parseList("8-15")), OptionalInt.empty())))
                    .hasMessageContaining("not all on the leased chiplets (0-7,128-135)");
            again.bindProcess(binder, new WorkerPlacement(0, OptionalInt.of(0), Optional.of(CpuSet.parseList("0-3")), OptionalInt.empty()));
        }
        assertThat(binder.events()).endsWith("bind 0-3 node OptionalInt.empty", "unbind");
        try (ChipletLeases after = ChipletLeases.open(leases, topology.chiplets(), topology)) {
            assertThat(after.holders(0)).isZero();
        }
    }

    @Test
    void aFailedLeaseLeavesTheDirectoryFree()
    {
        Topology topology = TestTopologies.twoChiplets();
        Path leases = directory.resolve("leases");
        assertThatThrownBy(() -> ChipletLock.acquire(leases, PlacementDomain.of(topology), 3, MemoryBinding.off(topology)))
                .hasMessageContaining("expected to lease 1 to 2 chiplets but asked for 3");
        try (ChipletLock lock = ChipletLock.acquire(leases, PlacementDomain.of(topology), 1, MemoryBinding.off(topology))) {
            assertThat(lock.target()).isEqualTo(new WorkerPlacement(0, OptionalInt.of(0), Optional.of(CpuSet.of(0)), OptionalInt.empty()));
        }
    }

    /**
     * Two sockets the kernel gives no id (-1 both): chiplets 0 and 2 on one (CPUs 0 and 2), 1 and 3 on the other. A
     * lease of two takes the lowest free chiplet, then one of the same socket, which only its CPUs tell apart.
     */
    @Test
    void leasesPreferTheFirstChipletsSocketEvenWithoutPackageIds()
    {
        CpuSet all = CpuSet.range(0, 3);
        List<Core> cores = List.of(0, 1, 2, 3).stream().map(cpu -> new Core(-1, cpu, CpuSet.of(cpu), Optional.empty())).toList();
        List<Chiplet> chiplets = List.of(0, 1, 2, 3).stream().map(cpu -> new Chiplet(cpu, -1, 0, CpuSet.of(cpu), 16L << 20, ChipletBasis.L3)).toList();
        Topology idless = Topology.builder("synthetic:id-less-packages", all)
                .packages(List.of(new CpuPackage(-1, CpuSet.parseList("0,2")), new CpuPackage(-1, CpuSet.parseList("1,3"))))
                .numaNodes(List.of(NumaNode.of(0, all, 8L << 30, Map.of(0, 10))))
                .cores(cores)
                .chiplets(chiplets)
                .build();
        try (ChipletLock lock = ChipletLock.acquire(directory.resolve("leases"), PlacementDomain.of(idless), 2, MemoryBinding.off(idless))) {
            assertThat(lock.share().ids()).containsExactly(0, 2);
        }
    }

    /** Live, on the snapshot mapping this machine's CPUs 0 and 1 as two chiplets: the thread runs on its lease until the lock closes. */
    @Test
    void bindsTheCallingThreadAndRestoresItBeforeReleasing()
            throws Exception
    {
        PinnableCpus allowed = PinnableCpus.live();
        assumeTrue(allowed.cpus().containsAll(CpuSet.range(0, 1)), "needs CPUs 0 and 1 allowed");
        Path root = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectory(directory.resolve("snapshot")));
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        ThreadBinder binder = new ThreadBinder(PinningBackend.fromName("ffm"), allowed);
        String[] masks = CompletableFuture.supplyAsync(() -> {
            String before = ownMask();
            String during;
            try (ChipletLock lock = ChipletLock.acquire(directory.resolve("leases"), PlacementDomain.of(topology, allowed.cpus()), 1, MemoryBinding.off(topology))) {
                lock.bindCurrentThread(binder, MemoryEnforcement.PREFERRED);
                during = ownMask();
                assertThatThrownBy(() -> lock.bindCurrentThread(binder, MemoryEnforcement.PREFERRED)).hasMessageContaining("bound a thread already");
            }
            return new String[] {before, during, ownMask()};
        }, runnable -> new Thread(runnable).start()).get();
        assertThat(masks[1]).isEqualTo("0");
        assertThat(masks[2]).isEqualTo(masks[0]);
    }

    private static String ownMask()
    {
        try {
            return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                    .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow().split("\t")[1];
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
