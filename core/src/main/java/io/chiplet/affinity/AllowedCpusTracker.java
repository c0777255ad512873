package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Notices when the CPUs this process may use change under it. The kubelet's static CPU manager may start a container
 * with the pod-wide cpuset and narrow it up to ten seconds later; YARN, systemd or an operator may move a running
 * process to another cpuset or {@code taskset -a -p} it. Kernels before 6.2 then reset every thread's mask to the
 * new cpuset, dropping our pins; later ones keep what fits.
 *
 * <p>No thread of its own: the plugins call {@link #check()} from the periodic work they already do (Trino's placement
 * rescan, Spark's executor watcher), so a change is seen within one of their intervals. A check reads two small
 * files and makes one syscall: the cgroup cpuset ({@code cpuset.cpus.effective} on v2, {@code cpuset.effective_cpus}
 * or {@code cpuset.cpus} on v1) and the affinity mask of the process's main thread (tid = pid), which no placement
 * pins, so it follows the cpuset and any {@code taskset} of the whole process.
 */
public final class AllowedCpusTracker
{
    /** A change: the allowed CPUs before and after. */
    public record Change(CpuSet before, CpuSet after)
    {
        public Change
        {
            requireNonNull(before, "before is null");
            requireNonNull(after, "after is null");
        }

        /** One log line: "allowed CPUs changed from 0-15 to 8-15 (8 CPUs removed, 0 added)". */
        public String describe()
        {
            return "allowed CPUs changed from " + before.toList() + " to " + after.toList() + " (" + before.minus(after).size() + " removed, "
                    + after.minus(before).size() + " added)";
        }
    }

    private final Supplier<CpuSet> reader;
    // Guarded by this.
    private CpuSet current;
    private long changes;

    /**
     * @param reader reads the allowed CPUs now; {@link #live()} reads this process's
     */
    public AllowedCpusTracker(Supplier<CpuSet> reader)
    {
        this.reader = requireNonNull(reader, "reader is null");
        this.current = requireNonNull(reader.get(), "the reader returned null");
    }

    /** Tracks this process: the online CPUs of its cgroup cpuset within its main thread's affinity mask. */
    public static AllowedCpusTracker live()
    {
        return new AllowedCpusTracker(AllowedCpusTracker::readLive);
    }

    /** The allowed CPUs of this process now, as {@link #live()} reads them. */
    public static CpuSet readLive()
    {
        CpuSet allowed = AllowedCpus.live().allowed();
        Optional<CpuSet> mask = new ProcessAffinityMask().affinityMask();
        if (mask.isPresent()) {
            CpuSet both = allowed.intersect(mask.get());
            // An empty intersection is a race between the two reads; the mask is what the kernel enforces.
            return both.isEmpty() ? mask.get() : both;
        }
        return allowed;
    }

    /** The allowed CPUs as of the latest check. */
    public synchronized CpuSet current()
    {
        return current;
    }

    /** How many changes the checks have seen. */
    public synchronized long changes()
    {
        return changes;
    }

    /**
     * Reads the allowed CPUs; when they differ from the latest check's, records and returns the change. An empty
     * reading (a cpuset being rewritten) is ignored until the next check.
     */
    public synchronized Optional<Change> check()
    {
        CpuSet now = reader.get();
        if (now.isEmpty() || now.equals(current)) {
            return Optional.empty();
        }
        Change change = new Change(current, now);
        current = now;
        changes++;
        return Optional.of(change);
    }
}
