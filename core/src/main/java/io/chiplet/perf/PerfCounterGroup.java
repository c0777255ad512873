package io.chiplet.perf;

import io.chiplet.nativeio.NativeCallException;

import java.util.ArrayList;
import java.util.List;

import static io.chiplet.perf.PerfEventSyscalls.ATTR_FLAG_DISABLED;
import static io.chiplet.perf.PerfEventSyscalls.ATTR_FLAG_EXCLUDE_HV;
import static io.chiplet.perf.PerfEventSyscalls.ATTR_FLAG_EXCLUDE_KERNEL;
import static io.chiplet.perf.PerfEventSyscalls.PERF_EVENT_IOC_DISABLE;
import static io.chiplet.perf.PerfEventSyscalls.PERF_EVENT_IOC_ENABLE;
import static io.chiplet.perf.PerfEventSyscalls.PERF_EVENT_IOC_RESET;
import static io.chiplet.perf.PerfEventSyscalls.PERF_FORMAT_GROUP;
import static io.chiplet.perf.PerfEventSyscalls.PERF_FORMAT_TOTAL_TIME_ENABLED;
import static io.chiplet.perf.PerfEventSyscalls.PERF_FORMAT_TOTAL_TIME_RUNNING;
import static io.chiplet.perf.PerfEventSyscalls.PERF_IOC_FLAG_GROUP;
import static java.util.Objects.requireNonNull;

/**
 * A perf_event group: the first event leads, the others follow it on and off the PMU, and one {@code read} of the
 * leader returns every count with the group's enabled and running times ({@code PERF_FORMAT_GROUP |
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING}). The group opens disabled; {@link #enable()} starts it.
 *
 * <p>{@link #open(CounterScope, List)} counts user space only ({@code exclude_kernel}, {@code exclude_hv}): that
 * is what {@code perf_event_paranoid = 2}, the common default, allows an unprivileged process. Events that only
 * happen in kernel mode (context switches, migrations) then read 0; {@link #open(CounterScope, List, boolean)}
 * counts kernel mode too where {@link PerfPlatform#kernelCountingAllowed()}.
 *
 * <p>Not thread-safe: one thread at a time may read or control a group, though it need not be the thread that
 * opened it. Every descriptor is closed by {@link #close()}, and by {@link #open} itself when a member fails.
 */
public final class PerfCounterGroup
        implements AutoCloseable
{
    private static final long READ_FORMAT = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    private static final int HEADER_LONGS = 3;

    private final CounterScope target;
    private final List<PerfEvent> events;
    private final int[] fds;
    private final long[] readBuffer;
    private boolean closed;

    private PerfCounterGroup(CounterScope target, List<PerfEvent> events, int[] fds)
    {
        this.target = target;
        this.events = events;
        this.fds = fds;
        this.readBuffer = new long[HEADER_LONGS + events.size()];
    }

    /** Opens {@code events} as one group on {@code target}, disabled, counting user mode only. */
    public static PerfCounterGroup open(CounterScope target, List<PerfEvent> events)
    {
        return open(target, events, false);
    }

    /**
     * Opens {@code events} as one group on {@code target}, disabled.
     *
     * @param countKernel count kernel mode as well as user mode (needs perf_event_paranoid &lt;= 1 or CAP_PERFMON)
     * @throws PerfEventOpenException naming the event the kernel refused, after closing the ones already open
     */
    public static PerfCounterGroup open(CounterScope target, List<PerfEvent> events, boolean countKernel)
    {
        requireNonNull(target, "target is null");
        List<PerfEvent> members = List.copyOf(requireNonNull(events, "events is null"));
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a counter group needs at least one event");
        }
        int[] fds = new int[members.size()];
        int opened = 0;
        try {
            for (PerfEvent event : members) {
                // Only the leader starts disabled; members then count exactly while the leader does.
                long flags = (countKernel ? 0 : ATTR_FLAG_EXCLUDE_KERNEL | ATTR_FLAG_EXCLUDE_HV) | (opened == 0 ? ATTR_FLAG_DISABLED : 0);
                try {
                    PerfEventAttr attr = PerfEventSyscalls.counterAttr(event.type(), event.config(), event.config1(), 0, READ_FORMAT, flags);
                    fds[opened] = PerfEventSyscalls.perfEventOpen(attr, target.pid(), target.cpu(), opened == 0 ? -1 : fds[0]);
                }
                catch (NativeCallException e) {
                    throw new PerfEventOpenException(event, target, e);
                }
                opened++;
            }
            return new PerfCounterGroup(target, members, fds);
        }
        catch (RuntimeException | Error e) {
            closeAll(fds, opened, e);
            throw e;
        }
    }

    public CounterScope target()
    {
        return target;
    }

    public List<PerfEvent> events()
    {
        return events;
    }

    public void enable()
    {
        groupIoctl(PERF_EVENT_IOC_ENABLE);
    }

    public void disable()
    {
        groupIoctl(PERF_EVENT_IOC_DISABLE);
    }

    /** Zeroes every count of the group. Enabled and running times are not reset by the kernel. */
    public void reset()
    {
        groupIoctl(PERF_EVENT_IOC_RESET);
    }

    /** Reads the whole group with one {@code read} of the leader. */
    public GroupReading read()
    {
        checkOpen();
        long bytes = PerfEventSyscalls.read(fds[0], readBuffer);
        long expected = (long) readBuffer.length * 8;
        if (bytes != expected) {
            throw new IllegalStateException("perf group read returned " + bytes + " bytes, expected " + expected);
        }
        long count = readBuffer[0];
        if (count != events.size()) {
            throw new IllegalStateException("perf group read returned " + count + " events, expected " + events.size());
        }
        long[] values = new long[events.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = readBuffer[HEADER_LONGS + i];
        }
        return new GroupReading(events, values, readBuffer[1], readBuffer[2]);
    }

    /** The file descriptors, leader first; for tests that check they are closed. */
    List<Integer> fileDescriptors()
    {
        List<Integer> list = new ArrayList<>(fds.length);
        for (int fd : fds) {
            list.add(fd);
        }
        return List.copyOf(list);
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            closeAll(fds, fds.length, null);
        }
        catch (RuntimeException e) {
            failure = e;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void groupIoctl(long request)
    {
        checkOpen();
        PerfEventSyscalls.ioctl(fds[0], request, PERF_IOC_FLAG_GROUP);
    }

    private void checkOpen()
    {
        if (closed) {
            throw new IllegalStateException("perf counter group is closed");
        }
    }

    /** Closes members before the leader; every fd is attempted, the first failure is thrown or attached. */
    private static void closeAll(int[] fds, int count, Throwable primary)
    {
        RuntimeException first = null;
        for (int i = count - 1; i >= 0; i--) {
            try {
                PerfEventSyscalls.close(fds[i]);
            }
            catch (RuntimeException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                }
                else if (first == null) {
                    first = e;
                }
                else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
