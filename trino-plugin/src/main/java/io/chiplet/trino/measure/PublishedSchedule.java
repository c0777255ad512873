package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The schedule the workers are to follow, and which of its windows every worker is known to follow: a change takes
 * effect {@value QueryMeasurements#LEAD_WINDOWS} windows after the one it is decided in and is unconfirmed until every
 * worker says it has it; windows that started before a late confirmation stay uncertain. It attributes a query to the
 * arm of the windows it ran in, or says why it cannot. Pure (times are arguments); not thread-safe.
 */
final class PublishedSchedule
{
    private WindowSchedule schedule;
    private OptionalLong pendingVersion;
    private long pendingFromWindow;
    private final List<long[]> uncertain = new ArrayList<>();

    private PublishedSchedule(WindowSchedule schedule, long pendingFromWindow)
    {
        this.schedule = requireNonNull(schedule, "schedule is null");
        this.pendingVersion = OptionalLong.of(schedule.version());
        this.pendingFromWindow = pendingFromWindow;
    }

    /** A first schedule, decided at {@code nowMillis}, not yet confirmed by any worker. */
    static PublishedSchedule starting(long nowMillis, long seed, long windowMillis, Directive directive)
    {
        long from = Math.floorDiv(nowMillis, windowMillis) + QueryMeasurements.LEAD_WINDOWS;
        return new PublishedSchedule(WindowSchedule.starting(nowMillis, seed, windowMillis, directive, from), from);
    }

    WindowSchedule current()
    {
        return schedule;
    }

    /**
     * What the publisher heard back at {@code nowMillis}: whether every worker now follows schedule {@code version} or
     * later. Windows that started before every worker confirmed a change are left out.
     */
    void confirmed(long epoch, long version, boolean everyWorker, long nowMillis)
    {
        if (!everyWorker || pendingVersion.isEmpty() || schedule.epoch() != epoch || version < pendingVersion.getAsLong()) {
            return;
        }
        long nowWindow = schedule.windowAt(nowMillis);
        if (nowWindow >= pendingFromWindow) {
            // Confirmed late: some worker may have switched only now.
            uncertain.add(new long[] {pendingFromWindow, nowWindow});
        }
        pendingVersion = OptionalLong.empty();
    }

    /**
     * A directive that differs from the schedule's last entry becomes its next entry, from {@value
     * QueryMeasurements#LEAD_WINDOWS} windows after {@code nowMillis}'s; returns whether it did (then it is to be
     * published).
     */
    boolean follow(Directive directive, long nowMillis)
    {
        if (directive.equals(schedule.latest())) {
            return false;
        }
        long from = schedule.windowAt(nowMillis) + QueryMeasurements.LEAD_WINDOWS;
        WindowSchedule next = schedule.with(directive, from);
        schedule = next;
        // A change still unconfirmed keeps its earlier first window: both are unconfirmed until the workers answer.
        pendingFromWindow = pendingVersion.isPresent() ? Math.min(pendingFromWindow, from) : from;
        pendingVersion = OptionalLong.of(next.version());
        return true;
    }

    /**
     * The arm of the windows a query ran in, widened by {@value QueryMeasurements#MARGIN_MILLIS} ms on both sides;
     * empty, counted in {@code leftOut}, where they are of both arms, before the schedule, or not known to be followed.
     */
    Optional<Arm> arm(CompletedQuery query, LeftOutQueries leftOut)
    {
        long first = schedule.windowAt(query.startMillis() - QueryMeasurements.MARGIN_MILLIS);
        long last = schedule.windowAt(query.endMillis() + QueryMeasurements.MARGIN_MILLIS);
        boolean unconfirmed = pendingVersion.isPresent() && last >= pendingFromWindow;
        for (long[] range : uncertain) {
            unconfirmed |= first <= range[1] && range[0] <= last;
        }
        WindowSchedule.Attribution attribution = schedule.attribute(query.startMillis(), query.endMillis(), QueryMeasurements.MARGIN_MILLIS);
        Optional<LeftOut> why = switch (attribution) {
            case UNSCHEDULED -> Optional.of(LeftOut.UNSCHEDULED);
            case SPANNING -> Optional.of(LeftOut.SPANNING);
            case PLACED, CONTROL -> unconfirmed ? Optional.of(LeftOut.UNCONFIRMED) : Optional.empty();
        };
        if (why.isPresent()) {
            leftOut.add(why.get());
            return Optional.empty();
        }
        return Optional.of(attribution == WindowSchedule.Attribution.PLACED ? Arm.PLACED : Arm.CONTROL);
    }
}
