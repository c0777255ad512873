package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementPropertiesTest
{
    private static final List<Topology> TOPOLOGIES = TestTopologies.all();

    /** A topology and a random non-empty subset of its online CPUs (often all of them, often sparse). */
    record Machine(Topology topology, CpuSet allowed)
    {
        @Override
        public String toString()
        {
            return topology.source() + " allowed=" + allowed;
        }
    }

    @Provide
    Arbitrary<Machine> machines()
    {
        return Combinators.combine(Arbitraries.integers().between(0, TOPOLOGIES.size() - 1), Arbitraries.longs(), Arbitraries.integers().between(0, 3))
                .as((index, seed, density) -> {
                    Topology topology = TOPOLOGIES.get(index);
                    if (density == 0) {
                        return new Machine(topology, topology.allowed());
                    }
                    Random random = new Random(seed);
                    int[] online = topology.online().toArray();
                    BitSet bits = new BitSet();
                    bits.set(online[random.nextInt(online.length)]);
                    for (int cpu : online) {
                        if (random.nextInt(4) < density) {
                            bits.set(cpu);
                        }
                    }
                    return new Machine(topology, CpuSet.fromBitSet(bits));
                });
    }

    @Provide
    Arbitrary<Policy> policies()
    {
        return Arbitraries.of(Policy.class);
    }

    @Property(tries = 400, seed = "20261128")
    void everyWorkerGetsAllowedCpusOnItsChipletAndNode(@ForAll("machines") Machine machine, @ForAll("policies") Policy policy, @ForAll @IntRange(min = 1, max = 300) int workers)
    {
        Plan plan = PlacementPlanner.plan(machine.topology(), new PlacementRequest(policy, workers, OptionalLong.empty(), machine.allowed()));
        assertThat(plan.assignments()).hasSize(workers);
        for (int worker = 0; worker < workers; worker++) {
            Assignment assignment = plan.assignments().get(worker);
            assertThat(assignment.worker()).isEqualTo(worker);
            assertThat(machine.allowed().containsAll(assignment.cpus())).as("allowed").isTrue();
            assertThat(machine.topology().online().containsAll(assignment.cpus())).as("online").isTrue();
            if (assignment.chiplet().isPresent()) {
                Chiplet chiplet = machine.topology().chiplet(assignment.chiplet().getAsInt()).orElseThrow();
                assertThat(chiplet.cpus().containsAll(assignment.cpus())).as("inside its chiplet").isTrue();
                assertThat(assignment.numaNode()).isEqualTo(chiplet.numaNode());
            }
            if (plan.policy() != Policy.WIM) {
                CpuSet node = machine.topology().numaNode(assignment.numaNode()).orElseThrow().cpus();
                assertThat(node.containsAll(assignment.cpus())).as("memory node holds the CPUs").isTrue();
            }
        }
    }

    @Property(tries = 400, seed = "20261128")
    void noTwoWorkersShareACoreWhileThereAreEnoughCores(@ForAll("machines") Machine machine, @ForAll @IntRange(min = 1, max = 300) int workers)
    {
        int cores = allowedCores(machine).size();
        int cpus = machine.allowed().intersect(machine.topology().online()).size();
        for (Policy policy : List.of(Policy.WIC, Policy.WICP_MIXED, Policy.ADAPTIVE, Policy.WICP_LOCAL)) {
            Plan plan = PlacementPlanner.plan(machine.topology(), new PlacementRequest(policy, workers, OptionalLong.empty(), machine.allowed()));
            // wicp-local fills SMT siblings before the next chiplet by design, so it promises distinct CPUs, not cores.
            boolean perCore = policy != Policy.WICP_LOCAL;
            if (workers <= (perCore ? cores : cpus)) {
                Map<Object, Integer> owner = new HashMap<>();
                for (Assignment assignment : plan.assignments()) {
                    for (int cpu : assignment.cpus().toArray()) {
                        Object unit = perCore ? coreOf(machine.topology(), cpu) : cpu;
                        Integer previous = owner.put(unit, assignment.worker());
                        assertThat(previous == null || previous == assignment.worker())
                                .as("%s: workers %s and %d share %s", policy, previous, assignment.worker(), unit)
                                .isTrue();
                    }
                }
            }
            if (policy != Policy.WICP_MIXED && workers > cpus) {
                // Wrapping around: every CPU carries floor or ceil of workers / CPUs.
                Map<Integer, Integer> load = new HashMap<>();
                plan.assignments().forEach(a -> a.cpus().stream().forEach(cpu -> load.merge(cpu, 1, Integer::sum)));
                assertThat(load).hasSize(cpus);
                int min = load.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
                int max = load.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
                assertThat(max - min).as(policy + " shares evenly").isLessThanOrEqualTo(1);
            }
        }
    }

    @Property(tries = 200, seed = "20261128")
    void sameInputsSamePlan(@ForAll("machines") Machine machine, @ForAll("policies") Policy policy, @ForAll @IntRange(min = 1, max = 300) int workers)
    {
        PlacementRequest request = new PlacementRequest(policy, workers, OptionalLong.of(64L << 20), machine.allowed());
        assertThat(PlacementPlanner.plan(machine.topology(), request)).isEqualTo(PlacementPlanner.plan(machine.topology(), request));
    }

    @Property(tries = 400, seed = "20261128")
    void spreadLocatorIsCollisionFreeForAnySpreads(@ForAll("machines") Machine machine, @ForAll @IntRange(min = 1, max = 600) int workers, @ForAll long seed)
    {
        SpreadLocator locator = SpreadLocator.of(machine.topology(), machine.allowed());
        Random random = new Random(seed);
        int[] spreads = new int[workers];
        int[] cpus = new int[workers];
        int[] chiplets = new int[workers];
        int cores = allowedCores(machine).size();
        // A sequence of spread vectors, as a controller would produce them over intervals.
        for (int round = 0; round < 5; round++) {
            for (int w = 0; w < workers; w++) {
                spreads[w] = random.nextInt(locator.chiplets() + 4) - 1;
            }
            locator.locate(spreads, workers, cpus, chiplets);
            Map<Core, Integer> owner = new HashMap<>();
            for (int w = 0; w < workers; w++) {
                assertThat(machine.allowed().contains(cpus[w])).isTrue();
                Chiplet chiplet = machine.topology().chiplet(locator.chipletId(chiplets[w])).orElseThrow();
                assertThat(chiplet.cpus().contains(cpus[w])).isTrue();
                if (workers <= cores) {
                    assertThat(owner.put(coreOf(machine.topology(), cpus[w]), w)).as("core of worker %d", w).isNull();
                }
            }
        }
    }

    @Property(tries = 300, seed = "20261128")
    void uniformSpreadMatchesCharmsAlgorithm2OnUniformChiplets(@ForAll @IntRange(min = 1, max = 16) int spread, @ForAll @IntRange(min = 1, max = 128) int workers)
    {
        Topology epyc = TestTopologies.epyc7763HwlocXml();
        SpreadLocator locator = SpreadLocator.of(epyc, epyc.allowed());
        int[] spreads = new int[workers];
        Arrays.fill(spreads, spread);
        int[] cpus = new int[workers];
        int[] chiplets = new int[workers];
        locator.locate(spreads, workers, cpus, chiplets);
        int perChiplet = Math.max(1, 8 / Math.min(spread, 8));
        for (int w = 0; w < workers; w++) {
            // Algorithm 2, lines 5-6, while the chiplets suffice: chiplet = id / (CORES/s), slot = id mod (CORES/s).
            if (w / perChiplet < 16) {
                assertThat(chiplets[w]).isEqualTo(w / perChiplet);
                assertThat(cpus[w]).isEqualTo(8 * (w / perChiplet) + w % perChiplet);
            }
        }
    }

    @Property(tries = 300, seed = "20261128")
    void spreadStaysWithinBoundsAndMovesAreBounded(@ForAll @IntRange(min = 1, max = 64) int workers, @ForAll @IntRange(min = 1, max = 16) int maxSpread, @ForAll long seed)
    {
        SpreadController controller = new SpreadController(workers, maxSpread, SpreadController.Settings.defaults(workers));
        int budget = Math.max(1, workers / 4);
        Random random = new Random(seed);
        for (int interval = 0; interval < 50; interval++) {
            controller.beginInterval();
            int changes = 0;
            for (int w = 0; w < workers; w++) {
                int before = controller.spread(w);
                int after = controller.step(w, random.nextInt(1000), 400_000_000L + random.nextInt(200_000_000));
                assertThat(after).isBetween(1, maxSpread);
                assertThat(Math.abs(after - before)).isLessThanOrEqualTo(1);
                changes += after != before ? 1 : 0;
            }
            assertThat(changes).isLessThanOrEqualTo(budget);
        }
    }

    private static List<Core> allowedCores(Machine machine)
    {
        return machine.topology().cores().stream().filter(core -> core.cpus().intersects(machine.allowed())).toList();
    }

    private static Core coreOf(Topology topology, int cpu)
    {
        return topology.cores().stream().filter(core -> core.cpus().contains(cpu)).findFirst().orElseThrow();
    }
}
