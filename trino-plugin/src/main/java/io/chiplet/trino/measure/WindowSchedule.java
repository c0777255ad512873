package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.SwitchbackWindows;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The cluster's switchback schedule: time cut into windows of {@code windowMillis} from the epoch, each window placed
 * or control as core's {@link SwitchbackWindows} draws it from the seed under the {@link Directive} in force for that
 * window. The directive changes (the adaptive control share, the guard's stop) take effect from a later window, named
 * in the entry, so that every worker has the new entry before its first window starts. Before the first entry nothing
 * is measured: every window is placed. All workers share one order (one stratum), because a Trino query runs on
 * every worker at once: per-worker orders would leave nearly every query spanning both arms. Pure and immutable: any
 * node given the same schedule computes the same arms.
 *
 * @param epoch identifies the coordinator run that made the schedule (its start time): a worker adopts a schedule of
 *         another epoch whatever its version
 * @param version grows with every entry within an epoch
 * @param entries sorted by {@link Entry#fromWindow}, strictly increasing
 */
public record WindowSchedule(long epoch, long version, long seed, long windowMillis, List<Entry> entries)
{
    /** The windows' one stratum: all workers switch together. */
    static final long CLUSTER = 0;
    /** Entries kept: older ones only matter for queries that ran many directive changes ago. */
    static final int MAX_ENTRIES = 32;
    /** A query running longer than this many windows is taken as spanning both arms without looking at each. */
    static final long MAX_WINDOWS_LOOKED_AT = 100_000;

    /**
     * From window {@code fromWindow} on (until the next entry), the control share and whether placing at all.
     */
    public record Entry(long fromWindow, double controlShare, boolean placing)
    {
        public Entry
        {
            new Directive(controlShare, placing);
        }

        Directive directive()
        {
            return new Directive(controlShare, placing);
        }
    }

    /** Where a finished query stands against the schedule. */
    public enum Attribution
    {
        PLACED, CONTROL,
        /** It ran in windows of both arms: left out and counted. */
        SPANNING,
        /** It ran (partly) before the schedule's first entry: nothing was measured then. */
        UNSCHEDULED
    }

    public WindowSchedule
    {
        requireNonNull(entries, "entries is null");
        entries = List.copyOf(entries);
        new SwitchbackWindows(new ArmAssignment(seed), windowMillis);
        for (int i = 1; i < entries.size(); i++) {
            if (entries.get(i).fromWindow() <= entries.get(i - 1).fromWindow()) {
                throw new IllegalArgumentException("expected schedule entries in increasing window order, got " + entries);
            }
        }
    }

    /** A schedule whose first entry, {@code directive}, takes effect from {@code fromWindow}. */
    public static WindowSchedule starting(long epoch, long seed, long windowMillis, Directive directive, long fromWindow)
    {
        return new WindowSchedule(epoch, 1, seed, windowMillis, List.of(new Entry(fromWindow, directive.controlShare(), directive.placing())));
    }

    public SwitchbackWindows windows()
    {
        return new SwitchbackWindows(new ArmAssignment(seed), windowMillis);
    }

    public long windowAt(long epochMillis)
    {
        return windows().windowAt(epochMillis);
    }

    public long nextWindowStart(long epochMillis)
    {
        return windows().nextWindowStart(epochMillis);
    }

    /** The entry in force in {@code window}; empty before the first. */
    public Optional<Entry> entryAt(long window)
    {
        Entry found = null;
        for (Entry entry : entries) {
            if (entry.fromWindow() > window) {
                break;
            }
            found = entry;
        }
        return Optional.ofNullable(found);
    }

    /** The arm of {@code window}: placed before the first entry. */
    public Arm armOfWindow(long window)
    {
        return entryAt(window).map(entry -> entry.directive().arm(new ArmAssignment(seed), CLUSTER, Math.max(0, window))).orElse(Arm.PLACED);
    }

    /** The arm a worker follows at {@code epochMillis}. */
    public Arm armAt(long epochMillis)
    {
        return armOfWindow(windowAt(epochMillis));
    }

    /**
     * Work that ran from {@code startMillis} to {@code endMillis}, widened by {@code marginMillis} on both sides (the
     * workers switch a little after a window starts, and their clocks differ a little from the coordinator's).
     */
    public Attribution attribute(long startMillis, long endMillis, long marginMillis)
    {
        if (endMillis < startMillis || marginMillis < 0) {
            throw new IllegalArgumentException("expected start <= end and a margin of 0 or more, got %d, %d, %d".formatted(startMillis, endMillis, marginMillis));
        }
        long first = windowAt(startMillis - marginMillis);
        long last = windowAt(endMillis + marginMillis);
        if (entryAt(first).isEmpty()) {
            return Attribution.UNSCHEDULED;
        }
        if (last - first > MAX_WINDOWS_LOOKED_AT) {
            return Attribution.SPANNING;
        }
        DrawnArm arm = drawnArmOfWindow(first);
        for (long window = first + 1; window <= last; window++) {
            if (!drawnArmOfWindow(window).equals(arm)) {
                // Windows of both arms, or of one arm drawn at two shares (compared apart, see DrawnArm).
                return Attribution.SPANNING;
            }
        }
        return arm.arm() == Arm.PLACED ? Attribution.PLACED : Attribution.CONTROL;
    }

    /** The arm of {@code window} with the control share it was drawn at; placed at share 0 before the first entry. */
    public DrawnArm drawnArmOfWindow(long window)
    {
        return entryAt(window).map(entry -> entry.directive().draw(new ArmAssignment(seed), CLUSTER, Math.max(0, window))).orElse(new DrawnArm(Arm.PLACED, 0));
    }

    /** The last entry's directive. */
    public Directive latest()
    {
        return entries.isEmpty() ? new Directive(0, true) : entries.getLast().directive();
    }

    /**
     * This schedule with {@code directive} in force from {@code fromWindow} on: the next version. Entries from that
     * window on are replaced (a change announced but not yet in force is superseded).
     */
    public WindowSchedule with(Directive directive, long fromWindow)
    {
        List<Entry> next = new ArrayList<>(entries.stream().filter(entry -> entry.fromWindow() < fromWindow).toList());
        next.add(new Entry(fromWindow, directive.controlShare(), directive.placing()));
        while (next.size() > MAX_ENTRIES) {
            next.removeFirst();
        }
        return new WindowSchedule(epoch, version + 1, seed, windowMillis, next);
    }

    /** Whether a worker that follows {@code current} should follow this one instead. */
    public boolean supersedes(WindowSchedule current)
    {
        return epoch != current.epoch || version > current.version;
    }
}
