package io.chiplet.spark.placement;

import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.ChipletLeases;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.binding.ChipletLock;
import io.chiplet.binding.ProcessBinder;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.mode=executor}, one executor per chiplet: at executor start, lease a chiplet of this host
 * through core's {@link ChipletLock} ({@link ChipletLeases}) in {@code spark.chiplet.leaseDir} and bind the whole executor process, every thread
 * and (with {@code spark.chiplet.memory.bind}) its memory, to that chiplet ({@link ChipletLock#bindProcess}). Tasks then need nothing: the hooks only
 * report the chiplet for the metrics. What the process binds under {@code spark.chiplet.policy} is core's rule
 * ({@link HostDivision#processTarget}): under {@code wim} nothing, so no chiplet is leased either; under every other
 * policy the whole leased chiplet.
 *
 * <p>Executors on one host take distinct chiplets while any is free. When every chiplet is taken (more executors
 * than chiplets on the host), the executor <em>shares</em> the chiplet with the fewest holders and says so in one
 * warning, rather than running unbound: an unbound executor would compete with every bound one on their chiplets,
 * while sharing keeps the overcommit on one chiplet and visible in the lease files.
 *
 * <p>Chiplets are numbered by each executor's own reading of the machine, so every executor on a host must read it
 * the same way (same {@code fsRoot} and {@code virtualChipletCores}); the lease directory must be one host-wide
 * path that all of them see (not a per-container temporary directory).
 */
public final class ExecutorProcessPlacement
        implements TaskPlacement
{
    private static final Logger log = LoggerFactory.getLogger(ExecutorProcessPlacement.class);

    private final Optional<ChipletLease> lease;
    private final Optional<CpuSet> cpus;
    private final Handle handle;
    private final Runnable release;
    private boolean closed;

    private ExecutorProcessPlacement(Optional<ChipletLease> lease, Optional<CpuSet> cpus, Runnable release)
    {
        this.lease = lease;
        this.cpus = cpus;
        OptionalInt chiplet = lease.map(held -> OptionalInt.of(held.chiplet().id())).orElse(OptionalInt.empty());
        // One handle for every task: the hooks allocate nothing.
        this.handle = lease.isPresent() ? () -> chiplet : Handle.UNPLACED;
        this.release = release;
    }

    /**
     * Leases a chiplet in {@code settings.leaseDirectory()}, checked with the driver through {@code leaseCoordinator}, and
     * binds this process to it on the live kernel.
     */
    public static ExecutorProcessPlacement create(PlacementSettings settings, Topology topology, LeaseCoordinator leaseCoordinator)
    {
        return create(settings, topology, ProcessBinder.live(ThreadBinder.live(settings.pinningBackend().configName())), leaseCoordinator);
    }

    /** As {@link #create(PlacementSettings, Topology, ProcessBinder, LeaseCoordinator)} with no driver to check the lease with. */
    static ExecutorProcessPlacement create(PlacementSettings settings, Topology topology, ProcessBinder binder)
    {
        return create(settings, topology, binder, LeaseCoordinator.NONE);
    }

    /**
     * @throws RuntimeException when no chiplet holds a CPU this process may use, the lease directory cannot be used, or
     *         the kernel refuses the binding; whatever was taken by then is released
     */
    static ExecutorProcessPlacement create(PlacementSettings settings, Topology topology, ProcessBinder binder, LeaseCoordinator leaseCoordinator)
    {
        requireNonNull(leaseCoordinator, "leaseCoordinator is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(binder, "binder is null");
        // A snapshot (fsRoot) may name CPUs this machine does not let us use: lease only chiplets we can run on.
        PlacementDomain share = PlacementDomain.ofProcess(topology, binder.pinnableCpus());
        MemoryBinding memory = MemoryBinding.of(topology, settings.memoryBind(), settings.memoryKind());
        // Core decides what a whole process gets under the policy; one that binds nothing leases nothing either.
        if (!HostDivision.processPlacement(share, settings.policy(), memory).bindsAnything()) {
            log.info("Chiplet plugin: {}; this executor runs on every CPU it may use ({})", HostDivision.processRule(settings.policy()), share.shareCpus().toList());
            return new ExecutorProcessPlacement(Optional.empty(), Optional.empty(), () -> {});
        }
        // Lease and bind through core's lock; on any failure it (and with it the lease) is released before rethrowing.
        ChipletLock lock = ChipletLock.acquire(settings.leaseDirectory(), share, 1, memory, leaseCoordinator);
        try {
            ChipletLease lease = lock.leases().get(0);
            WorkerPlacement target = HostDivision.processPlacement(lock.share(), settings.policy(), memory);
            CpuSet cpus = target.cpusToBind().orElseThrow();
            memory.shortfall().ifPresent(problem -> log.warn("Chiplet plugin: {}={}: {}", SparkSettings.MEMORY_KIND, memory.kind().jsonName(), problem));
            ProcessBinder.Binding binding = lock.bindProcess(binder, target);
            LeaseVerdict verdict = lock.verdict();
            if (lock.sharedWithUnseenProcesses()) {
                log.warn("Chiplet plugin: executors {} of this host hold every chiplet in a lease directory this executor cannot see ({} is another directory "
                        + "for them); this executor shares {} with them. Set {} to a directory every executor of the host shares.",
                        verdict.unseenHolders(), lock.directory(), lease.chiplet().id(), SparkSettings.LEASE_DIR);
            }
            else if (!verdict.directoryShared()) {
                log.warn("Chiplet plugin: executors {} of this host lease in another directory than {}; the driver kept this executor off their chiplets {}",
                        verdict.unseenHolders(), lock.directory(), verdict.unseenChiplets());
            }
            if (lease.shared()) {
                log.warn("Chiplet plugin: every chiplet of this host is leased by another executor (lease directory {}); this executor shares {}. "
                        + "Run at most one executor per chiplet per host to avoid it.", lock.directory(), lease.describe());
            }
            else {
                log.info("Chiplet plugin: {}; this executor leased {} in {} and bound its process to CPUs {}, memory {}", HostDivision.processRule(settings.policy()),
                        lease.describe(), lock.directory(), cpus.toList(),
                        target.memoryNodeToBind().isPresent() ? "preferred on node " + target.memoryNodeToBind().getAsInt() : "not bound");
            }
            binding.memoryProblem().ifPresent(problem ->
                    log.warn("Chiplet plugin: memory of this executor is not bound ({}); its threads are bound to CPUs {}, so new pages still go to their node first",
                            problem, cpus.toList()));
            // The lock unbinds before giving up the lease: another executor may take the chiplet the moment it is free.
            return new ExecutorProcessPlacement(Optional.of(lease), Optional.of(cpus), lock::close);
        }
        catch (RuntimeException | Error e) {
            try {
                lock.close();
            }
            catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * One chiplet: executors on one host hold different ones, so the driver must not count the host's chiplets per
     * executor. Unbound ({@code wim}): every allowed CPU.
     */
    @Override
    public PartitionBasis summary(Topology topology)
    {
        return PartitionBasis.of(topology, cpus.orElse(topology.allowed()));
    }

    /** Only the leased chiplet: the executor's metrics count no other. Unbound: all of them. */
    @Override
    public List<Integer> chipletIds(List<Integer> usable)
    {
        return lease.map(held -> List.of(held.chiplet().id())).orElse(usable);
    }

    /** Its leased chiplet; unbound ({@code wim}): none, so the driver counts its host once however many such executors run there. */
    @Override
    public boolean holdsOwnChiplets()
    {
        return lease.isPresent();
    }

    /** The chiplet this executor leased; empty when its policy binds nothing ({@code wim}). */
    public Optional<ChipletLease> lease()
    {
        return lease;
    }

    /** The CPUs this executor's threads are bound to; empty when they are left alone ({@code wim}). */
    public Optional<CpuSet> cpus()
    {
        return cpus;
    }

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        return handle;
    }

    @Override
    public void onTaskEnd(Handle handle) {}

    /** Restores every thread's previous mask and memory policy, then releases the lease. Idempotent. */
    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        release.run();
    }
}
