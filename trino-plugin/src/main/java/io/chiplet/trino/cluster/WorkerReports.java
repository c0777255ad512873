package io.chiplet.trino.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * The workers' latest reports on the coordinator. One instance per plugin: the coordinator's chiplet catalog collects
 * them, the session defaults read them. Where a file is set, every new set of reports is saved there and the saved
 * set is the starting point after a restart (a file that cannot be read costs one warning and starts empty).
 */
public final class WorkerReports
{
    private static final Logger log = LoggerFactory.getLogger(WorkerReports.class);

    /**
     * @param reports one per worker, by node id
     * @param taken when the workers reported them
     * @param saved whether they come from the file of a previous run rather than from the workers since this start
     */
    public record Snapshot(List<WorkerReport> reports, Instant taken, boolean saved)
    {
        public static final Snapshot NONE = new Snapshot(List.of(), Instant.EPOCH, false);

        public Snapshot
        {
            reports = reports.stream().sorted(Comparator.comparing(WorkerReport::node)).toList();
            requireNonNull(taken, "taken is null");
        }

        public boolean isEmpty()
        {
            return reports.isEmpty();
        }

        public String describe()
        {
            return reports.size() + (reports.size() == 1 ? " worker" : " workers") + (saved ? " as saved at " + taken + " before this start" : "");
        }
    }

    private final AtomicBoolean collecting = new AtomicBoolean();
    private volatile boolean wanted;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile Snapshot current = Snapshot.NONE;
    private volatile Optional<Path> file = Optional.empty();
    private volatile boolean saveFailed;

    /** The latest reports; {@link Snapshot#NONE} before any. */
    public Snapshot current()
    {
        return current;
    }

    /**
     * Keeps the reports in {@code file} from now on, and starts from what it holds unless the workers already reported.
     * A missing file is a first start; one that cannot be read or used is named in one warning and left to be replaced.
     */
    public synchronized void keepIn(Path file)
    {
        requireNonNull(file, "file is null");
        this.file = Optional.of(file);
        try {
            WorkerReportsFile.Saved saved = WorkerReportsFile.read(file);
            if (current.isEmpty() && !saved.reports().isEmpty()) {
                current = new Snapshot(saved.reports(), saved.saved(), true);
                log.info("Chiplet worker reports: {} from {}, used until the workers report again", current.describe(), file);
            }
        }
        catch (NoSuchFileException e) {
            log.debug("No saved worker reports in {}", file);
        }
        catch (IOException | RuntimeException e) {
            log.warn("Chiplet worker reports: {} is not usable, starting without saved reports: {}", file, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** The workers' new reports; saved where a file is set (a failure to save warns once and keeps them in memory). */
    public synchronized void update(List<WorkerReport> reports, Instant taken)
    {
        requireNonNull(reports, "reports is null");
        Snapshot next = new Snapshot(reports, taken, false);
        boolean changed = !next.reports().equals(current.reports()) || current.saved();
        current = next;
        if (changed) {
            listeners.forEach(Runnable::run);
        }
        if (changed && file.isPresent()) {
            try {
                WorkerReportsFile.write(file.get(), next.reports(), taken);
            }
            catch (IOException | RuntimeException e) {
                if (!saveFailed) {
                    saveFailed = true;
                    log.warn("Chiplet worker reports: cannot save them to {}, a restarted coordinator starts without them: {}", file.get(), e.toString());
                }
            }
        }
    }

    /** Runs {@code listener} after every change of the reports (a listener's failure is its own to handle). */
    public void onChange(Runnable listener)
    {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    /** Someone uses the reports (the session defaults): until then nobody asks the workers. */
    public void want()
    {
        wanted = true;
    }

    public boolean wanted()
    {
        return wanted;
    }

    /** True for the first caller only: one catalog per coordinator collects the reports. */
    public boolean claimCollection()
    {
        return collecting.compareAndSet(false, true);
    }

    public void releaseCollection()
    {
        collecting.set(false);
    }
}
