package io.chiplet.trino.connector;

import io.chiplet.affinity.PinnableCpusTracker;
import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.binding.ChipletLock;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.Topology;
import io.chiplet.trino.placement.LiveQueryThreadBinder;
import io.chiplet.trino.placement.MemoryAdvice;
import io.chiplet.trino.placement.PlacementAgent;
import io.chiplet.trino.placement.RemoteAccessSignals;
import io.chiplet.trino.placement.ThreadPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.SortedSet;

/**
 * Starts the JVM's placement agent on this node: plans the node's setup ({@link NodeSetup}) on the live allowed CPUs,
 * leases its chiplets host-wide, says what the operator must hear (shared leases, memory locality) and starts the
 * agent on the leased share. The lease is given back where the agent does not start. Once per JVM
 * ({@code PlacementAgents.register}).
 */
final class NodeAgentLauncher
{
    // The node runtime's lines, under its name as before.
    private static final Logger log = LoggerFactory.getLogger(NodeRuntime.class);

    private NodeAgentLauncher() {}

    static PlacementAgent start(String node, PlacementSettings config, Topology topology)
    {
        ThreadBinder binder = ThreadBinder.live("ffm");
        NodeSetup setup = NodeSetup.of(config, topology, PinnableCpusTracker.readLive());
        PlacementDomain share = setup.share();
        MemoryBinding memory = setup.memory();
        // Warned once: the agent starts once per JVM.
        setup.leases().capped().ifPresent(why -> log.warn("Chiplet placement on node {}: {}: {}", node, TrinoSettings.CHIPLETS_PER_NODE, why));
        ChipletLock lock = ChipletLock.acquire(config.leaseDirectory(), share, setup.leases().chiplets(), memory);
        try {
            for (ChipletLease lease : lock.leases()) {
                if (lease.shared()) {
                    // Sharing halves this node's placement on that chiplet: the operator must hear of it.
                    log.warn("Chiplet placement on node {}: {}", node, lease.describe());
                }
            }
            ThreadPlacement placement = setup.placement(lock.share());
            log.info("Chiplet placement on node {}: {}", node, share.alignment().describe());
            PlacementAgent agent = new PlacementAgent(node, placement, PinnableCpusTracker.live(), new LiveQueryThreadBinder(binder), RemoteAccessSignals.live(),
                    config.adaptiveInterval(), config.remoteAccessThreshold(), List.of(lock));
            checkMemoryLocality(node, config, memory, lock.memoryNodesToBind());
            // Under adaptive every pass is one controller step, so passes follow the adaptive interval.
            Duration period = config.policy().adaptsAtRunTime() ? config.adaptiveInterval() : config.rescanInterval();
            agent.start(period);
            log.info("Chiplet placement on node {}: policy {}, chiplets {} (CPUs {}) of {} from {}, rescan every {} ms",
                    node, config.policy(), lock.share().ids(), lock.share().shareCpus(), topology.chiplets().size(),
                    topology.source(), period.toMillis());
            return agent;
        }
        catch (RuntimeException | LinkageError e) {
            lock.close();
            throw e;
        }
    }

    /**
     * A thread's memory policy can only be set by the thread itself, and Trino's runner threads never run our code;
     * so memory follows the threads by first touch (every mask lies in one NUMA node), and the Java heap does so only
     * with {@code -XX:+UseNUMA}. Say so once where it matters: where core's memory rule binds memory
     * ({@link MemoryBinding#binds()}: asked for, more than one node) and the flag is off; and for a memory kind other
     * than {@code dram}, which first touch never reaches, name the nodes core chose ({@link MemoryAdvice}).
     */
    private static void checkMemoryLocality(String node, PlacementSettings config, MemoryBinding memory, SortedSet<Integer> nodes)
    {
        MemoryAdvice.of(memory, config.memoryKind(), nodes).ifPresent(advice ->
                log.warn("Chiplet placement on node {}: {}={} is not applied by the plugin: {}", node, TrinoSettings.MEMORY_KIND, config.memoryKind().jsonName(), advice));
        if (!memory.binds()) {
            return;
        }
        try {
            var diagnostics = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(diagnostics.getVMOption("UseNUMA").getValue())) {
                log.info("Chiplet placement on node {}: {} NUMA nodes but the JVM runs without -XX:+UseNUMA; query threads' native memory is node-local "
                        + "by first touch, their Java heap allocations are not (add -XX:+UseNUMA to etc/jvm.config)", node, memory.allowedNodes().size());
            }
        }
        catch (RuntimeException e) {
            log.debug("Cannot read the JVM's UseNUMA flag", e);
        }
    }
}
