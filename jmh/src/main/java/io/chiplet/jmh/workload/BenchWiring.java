package io.chiplet.jmh.workload;

import io.chiplet.affinity.BoundThread;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.binding.MemoryEnforcement;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PluginSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;

import java.util.Optional;

/**
 * The two seams every workload benchmark goes through, chosen in one place: core's planner finishes each worker's
 * target (what {@code chiplet plan} prints and the plugins bind), core's binding API ({@link ThreadBinder}, the
 * plugins' own) binds it. Nothing here decides a placement.
 */
public final class BenchWiring
{
    /** The plugins' declared defaults ({@code memory.bind}, {@code memory.kind}), which {@code chiplet plan} uses too. */
    static final boolean BIND_MEMORY = PluginSettings.MEMORY_BIND.defaultParsed().orElseThrow();
    static final MemoryKind MEMORY_KIND = PluginSettings.MEMORY_KIND.defaultParsed().orElseThrow();

    private BenchWiring() {}

    public static WorkerBinder binder()
    {
        ThreadBinder binder = ThreadBinder.live();
        // Workers stay bound for their whole trial, so the binding is not restored; a thread bound again (a JMH
        // thread in a later trial) gets its old state back first, then the new target.
        return target -> {
            if (!target.bindsAnything()) {
                return; // wim: the thread keeps the mask and memory policy it has
            }
            Optional<MemoryPolicy> memory = MemoryEnforcement.PREFERRED.policyFor(target.memoryNodeToBind());
            CpuSet cpus = target.cpusToBind().orElseGet(binder::currentMask);
            BoundThread thread = binder.currentThread();
            thread.restore();
            thread.bind(binder.prepare(cpus, memory));
        };
    }

    public static PlacementSource placement()
    {
        return (topology, policy, workers) -> PlacementPlanner.targets(PlacementDomain.of(topology), Policy.parse(policy), workers,
                MemoryBinding.of(topology, BIND_MEMORY, MEMORY_KIND));
    }

    /** Whether worker threads are really bound, for the report to say so. */
    public static boolean pinsThreads()
    {
        return true;
    }
}
