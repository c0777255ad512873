package io.chiplet.trino.placement;

import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementAgentsTest
{
    private static final Topology MACHINE = SyntheticTopologies.uniform("synthetic:4", 1, 2, 2, 1, 16L << 20, 1);

    @Test
    void catalogsOfOneJvmShareOneAgentUntilTheLastLeaves()
    {
        AtomicInteger created = new AtomicInteger();
        AtomicInteger released = new AtomicInteger();
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0");
        java.util.function.Supplier<PlacementAgent> create = () -> {
            created.incrementAndGet();
            return new PlacementAgent("shared", TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed()), threads, threads,
                    Duration.ofMillis(500), 300, List.of(released::incrementAndGet));
        };
        PlacementAgents.Registration coordinator = PlacementAgents.register("chiplet", "settings", create);
        PlacementAgents.Registration worker = PlacementAgents.register("chiplet", "settings", create);
        PlacementAgents.Registration other = PlacementAgents.register("chiplet2", "other settings", create);

        assertThat(created).hasValue(1);
        assertThat(worker.agent()).isSameAs(coordinator.agent()).isSameAs(other.agent());
        assertThat(other.governingCatalog()).isEqualTo("chiplet");
        coordinator.agent().pass();
        assertThat(threads.mask(11)).isNotEqualTo(FakeQueryThreadBinder.ORIGINAL);

        coordinator.close();
        coordinator.close();
        worker.close();
        assertThat(released).hasValue(0);
        other.close();
        assertThat(released).hasValue(1);
        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);

        // The next catalog starts a fresh agent.
        PlacementAgents.Registration next = PlacementAgents.register("chiplet", "settings", create);
        assertThat(created).hasValue(2);
        next.close();
    }
}
