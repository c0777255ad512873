package io.chiplet.binding;

import io.chiplet.affinity.BoundThread;
import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.ChipletLeases;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Chiplets of this host leased for this process, and optionally the calling thread or the whole process bound to
 * them, released together by {@link #close()}: lease, bind, release as one object, the way OpenHFT's
 * {@code AffinityLock} holds a CPU. Spark's executor mode and host share, Trino's node runtime and {@code chiplet exec}
 * all take their chiplets through it, so "which chiplets, which CPUs on them, which memory node" is decided once, by
 * core ({@link PlacementDomain}, {@link MemoryBinding}).
 *
 * <p>Close it on the thread that {@linkplain #bindCurrentThread bound} (or {@linkplain #bindProcess bound the process}): a thread's memory policy can only be given
 * back by the thread itself. Closing restores the binding before giving up the lease, since another JVM may take the
 * chiplet the moment it is free. Not thread-safe: one owner.
 */
public final class ChipletLock
        implements AutoCloseable
{
    private final ChipletLeases leases;
    private final ChipletLeases.LeaseSet leaseSet;
    private final PlacementDomain share;
    private final MemoryBinding memory;
    private final LeaseVerdict verdict;
    // What this lock bound (the calling thread, or the whole process) and how to give it back: one binding per lock.
    private Optional<Runnable> unbind = Optional.empty();
    private boolean closed;

    private ChipletLock(ChipletLeases leases, ChipletLeases.LeaseSet leaseSet, PlacementDomain share, MemoryBinding memory, LeaseVerdict verdict)
    {
        this.leases = leases;
        this.leaseSet = leaseSet;
        this.share = share;
        this.memory = memory;
        this.verdict = verdict;
    }

    /**
     * Leases {@code count} chiplets of {@code share} host-wide in {@code leaseDirectory} (free ones first, then shared
     * with the fewest holders: {@link ChipletLeases#acquire}).
     *
     * @param memory the memory rule {@link #target()} and {@link #bindCurrentThread} apply
     * @throws IllegalArgumentException when {@code count} is not 1 to the share's chiplets
     * @throws IllegalStateException when this JVM already has {@code leaseDirectory} open
     * @throws java.io.UncheckedIOException naming the directory when it cannot be used
     */
    public static ChipletLock acquire(Path leaseDirectory, PlacementDomain share, int count, MemoryBinding memory)
    {
        requireNonNull(leaseDirectory, "leaseDirectory is null");
        requireNonNull(share, "share is null");
        requireNonNull(memory, "memory is null");
        if (share.chiplets().isEmpty()) {
            throw new IllegalArgumentException("the topology " + share.topology().source() + " has no chiplets to lease");
        }
        ChipletLeases leases = ChipletLeases.open(leaseDirectory, share.chiplets(), share.topology());
        try {
            ChipletLeases.LeaseSet set = leases.acquire(count);
            return new ChipletLock(leases, set, share.leased(set.chiplets()), memory, LeaseVerdict.SHARED_DIRECTORY);
        }
        catch (RuntimeException | Error e) {
            leases.close();
            throw e;
        }
    }

    /**
     * Leases as {@link #acquire(Path, PlacementDomain, int, MemoryBinding)} does, then tells the application's
     * {@code coordinator} what it took ({@link LeaseCoordinator#claim}). Where processes of the application on this host
     * hold some of those chiplets in a lease directory this one cannot see (a container's private {@code /tmp}), it
     * leases again without them, so the application never double-books a chiplet however its containers are set up;
     * only when they hold every chiplet does it keep what it has, and {@link #verdict()} says so for the caller to warn.
     */
    public static ChipletLock acquire(Path leaseDirectory, PlacementDomain share, int count, MemoryBinding memory, LeaseCoordinator coordinator)
    {
        requireNonNull(coordinator, "coordinator is null");
        ChipletLock lock = acquire(leaseDirectory, share, count, memory);
        try {
            Optional<LeaseScope> scope = LeaseScope.of(lock.directory());
            if (scope.isEmpty()) {
                return lock;
            }
            LeaseVerdict verdict = coordinator.claim(scope.get(), lock.chipletIds());
            // Each retry avoids every chiplet the coordinator named so far; a few suffice unless processes keep starting.
            for (int attempt = 0; verdict.collidesWith(lock.chipletIds()) && attempt < MAX_COORDINATED_ATTEMPTS; attempt++) {
                Optional<PlacementDomain> rest = share.excluding(verdict.unseenChiplets());
                if (rest.isEmpty()) {
                    break;
                }
                lock.close();
                lock = acquire(leaseDirectory, rest.get(), Math.min(count, rest.get().chiplets().size()), memory);
                verdict = coordinator.claim(scope.get(), lock.chipletIds());
            }
            return new ChipletLock(lock.leases, lock.leaseSet, lock.share, lock.memory, verdict);
        }
        catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    private static final int MAX_COORDINATED_ATTEMPTS = 3;

    /**
     * Whether this lock holds chiplets that processes of the application on this host also hold, in a lease directory
     * this one cannot see: they held every chiplet, so it shares one with them (the caller warns).
     */
    public boolean sharedWithUnseenProcesses()
    {
        return verdict.collidesWith(chipletIds());
    }

    private SortedSet<Integer> chipletIds()
    {
        return leaseSet.chiplets().stream().map(Chiplet::id).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * What the application's coordinator said of this lease ({@link LeaseVerdict#SHARED_DIRECTORY} without one): whether
     * the lease directory is the one every process of the application on this host uses, and, where not, which
     * chiplets those processes hold; {@link LeaseVerdict#collidesWith} this lock's chiplets only when they hold all.
     */
    public LeaseVerdict verdict()
    {
        return verdict;
    }

    /** The leased chiplets, each saying whether it is shared with other holders (for the caller to log). */
    public List<ChipletLease> leases()
    {
        return leaseSet.leases();
    }

    /** Whether any leased chiplet is shared: every chiplet was leased already. */
    public boolean anyShared()
    {
        return leaseSet.anyShared();
    }

    /** The process's share narrowed to the leased chiplets: what it places its workers on from now. */
    public PlacementDomain share()
    {
        return share;
    }

    /** The lease directory, for the log. */
    public Path directory()
    {
        return leases.directory();
    }

    /**
     * What one worker holding the whole lease binds to: the share's CPUs on the leased chiplets and, under the memory
     * rule, the memory node when the leased chiplets' memory lies on one node (several nodes: {@link #memoryNodesToBind()}).
     */
    public WorkerPlacement target()
    {
        List<Chiplet> chiplets = share.chiplets();
        OptionalInt chiplet = chiplets.size() == 1 ? OptionalInt.of(chiplets.get(0).id()) : OptionalInt.empty();
        SortedSet<Integer> nodes = memoryNodesToBind();
        OptionalInt node = nodes.size() == 1 ? OptionalInt.of(nodes.first()) : OptionalInt.empty();
        return new WorkerPlacement(0, chiplet, Optional.of(share.shareCpus()), node);
    }

    /** The memory nodes of the leased chiplets under the memory rule; empty when memory is not bound. */
    public SortedSet<Integer> memoryNodesToBind()
    {
        return share.memoryNodesToBind(memory);
    }

    /**
     * The lock files holding the leases, for a process that replaces itself ({@code execve}) and keeps them open so
     * the lease lasts as long as the new program runs.
     */
    public List<Path> lockFiles()
    {
        return leaseSet.chiplets().stream().map(chiplet -> leases.lockFile(chiplet.id())).toList();
    }

    /**
     * Binds the calling thread to the leased CPUs and memory nodes ({@link #target()}, {@link #memoryNodesToBind()}) as
     * strictly as {@code enforcement} says; {@link #close()} gives it back what it had. Threads it starts afterwards
     * inherit the binding.
     *
     * @throws IllegalStateException when this lock bound a thread already, or is closed
     * @throws IllegalArgumentException when the kernel refuses the CPUs
     */
    public BoundThread bindCurrentThread(ThreadBinder binder, MemoryEnforcement enforcement)
    {
        requireNonNull(binder, "binder is null");
        requireNonNull(enforcement, "enforcement is null");
        checkUnbound();
        Optional<MemoryPolicy> policy = enforcement.policyFor(memoryNodesToBind());
        BoundThread thread = binder.bindCurrentThread(binder.prepare(share.shareCpus(), policy));
        unbind = Optional.of(thread::restore);
        return thread;
    }

    /**
     * Binds every thread of this process to the leased CPUs and, where {@link #target()} names one memory node, has the
     * calling thread (and every thread it creates later) prefer it: a whole process on its leased chiplet (Spark's
     * executor mode). {@link #close()} gives every thread its mask back, then releases the lease.
     *
     * @param binder the kernel's ({@link ProcessBinder#live}) or a test's
     * @throws IllegalStateException when this lock bound already, or is closed
     * @throws RuntimeException when the binder fails; nothing stays bound then, and the lease is held until {@link #close()}
     */
    public ProcessBinder.Binding bindProcess(ProcessBinder binder)
    {
        return bindProcess(binder, target());
    }

    /**
     * Binds every thread of this process to {@code target} (core's {@code HostDivision.processPlacement} on {@link #share()}),
     * as {@link #bindProcess(ProcessBinder)} does with {@link #target()}.
     *
     * @throws IllegalArgumentException when {@code target} binds no CPUs or CPUs outside the leased chiplets
     */
    public ProcessBinder.Binding bindProcess(ProcessBinder binder, WorkerPlacement target)
    {
        requireNonNull(binder, "binder is null");
        requireNonNull(target, "target is null");
        CpuSet cpus = target.cpusToBind().orElseThrow(() -> new IllegalArgumentException("worker " + target.worker() + " binds no CPUs; a lock binds its leased chiplets"));
        if (!share.shareCpus().containsAll(cpus)) {
            throw new IllegalArgumentException("CPUs " + cpus.toList() + " are not all on the leased chiplets (" + share.shareCpus().toList() + ")");
        }
        checkUnbound();
        ProcessBinder.Binding binding = binder.bind(cpus, target.memoryNodeToBind());
        unbind = Optional.of(binding::close);
        return binding;
    }

    private void checkUnbound()
    {
        if (closed) {
            throw new IllegalStateException("the chiplet lock is closed");
        }
        if (unbind.isPresent()) {
            throw new IllegalStateException("the chiplet lock has bound a thread already");
        }
    }

    /** Restores what this lock bound (a thread, or the process), then releases the leases. Closing twice closes once. */
    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        try (leases; leaseSet) {
            unbind.ifPresent(Runnable::run);
        }
    }
}
