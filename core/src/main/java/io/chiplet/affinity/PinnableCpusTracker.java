package io.chiplet.affinity;

import io.chiplet.topology.CgroupCpuset;
import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 *
 * <p>{@link #live()} does that full read (some 1-1.5 ms on a loaded VM: it locates the cgroup through
 * {@code /proc/self/mountinfo} each time) only when a cheap fingerprint changed: the raw text of
 * {@code /proc/self/cgroup} (a move to another cgroup), of the cpuset file located at the last full read, of the
 * online CPUs, and the {@code Cpus_allowed_list} line of {@code /proc/self/status}. Each of those changes with what
 * the full read returns, so no change is missed; a changed fingerprint locates the cgroup anew.
 */
public final class PinnableCpusTracker
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
    public PinnableCpusTracker(Supplier<CpuSet> reader)
    {
        this.reader = requireNonNull(reader, "reader is null");
        this.current = requireNonNull(reader.get(), "the reader returned null");
    }

    /** Tracks this process: the online CPUs of its cgroup cpuset within its main thread's affinity mask. */
    public static PinnableCpusTracker live()
    {
        return new PinnableCpusTracker(new LiveReading());
    }

    /** {@link #readLive()}, done again only when the files it depends on read differently from the last time. */
    static final class LiveReading
            implements Supplier<CpuSet>
    {
        private static final Path CGROUP = Path.of("/proc/self/cgroup");
        private static final Path STATUS = Path.of("/proc/self/status");
        private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
        private static final String MASK_KEY = "Cpus_allowed_list:";

        // Guarded by this.
        private Optional<Path> cpusetFile = Optional.empty();
        private String fingerprint = "";
        private CpuSet last;
        private long fullReads;

        @Override
        public synchronized CpuSet get()
        {
            if (last != null && fingerprint().equals(fingerprint)) {
                return last;
            }
            cpusetFile = locateCpusetFile();
            // Taken before the full read: a change between the two shows as a different fingerprint next time.
            fingerprint = fingerprint();
            last = readLive();
            fullReads++;
            return last;
        }

        /** How many full reads were done; for tests. */
        synchronized long fullReads()
        {
            return fullReads;
        }

        private static Optional<Path> locateCpusetFile()
        {
            try {
                return CgroupCpuset.read(Path.of("/")).file().map(file -> Path.of("/").resolve(file));
            }
            catch (RuntimeException e) {
                // The full read reports what is wrong; the fingerprint then watches the other files.
                return Optional.empty();
            }
        }

        private String fingerprint()
        {
            String status = text(STATUS);
            int at = status.indexOf(MASK_KEY);
            int end = at < 0 ? -1 : status.indexOf('\n', at);
            String mask = at < 0 ? "" : status.substring(at, end < 0 ? status.length() : end);
            return text(CGROUP) + '\0' + cpusetFile.map(LiveReading::text).orElse("") + '\0' + text(ONLINE) + '\0' + mask;
        }

        private static String text(Path path)
        {
            try {
                return new String(Files.readAllBytes(path), StandardCharsets.US_ASCII);
            }
            catch (IOException | RuntimeException e) {
                return "unreadable";
            }
        }
    }

    /** The allowed CPUs of this process now, as {@link #live()} reads them. */
    public static CpuSet readLive()
    {
        CpuSet allowed = PinnableCpus.live().cpus();
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
