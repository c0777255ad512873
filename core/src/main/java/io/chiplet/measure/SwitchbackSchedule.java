package io.chiplet.measure;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.LongFunction;

import static java.util.Objects.requireNonNull;

/**
 * Switchback windows per host: every process of one host (all Spark executors of a machine, a Trino worker) places
 * or not for a whole window of time, so placed and control work never share a machine at the same moment. Each
 * host's windows are drawn by {@link SwitchbackWindows} with the host as stratum ({@link #hostStratum}), so every
 * process that reads the same host key, seed and directive runs the same arm at the same time, and hosts follow
 * independent orders.
 *
 * <p>The rule for work near a switch is fixed before anything runs and is the same for every engine: a unit (a task)
 * belongs to the window it <em>started</em> in and has that window's arm; it is <b>left out and counted</b> when it
 * started within {@code washoutMillis} after a switch of arm (work of the other arm may still be running beside it),
 * or when it ran into a later window of the other arm (it spanned a switch, so it ran under both). A unit that runs
 * on into a later window of the same arm keeps its arm and its start window. Pure: the engine hands in the times it
 * read and the directive in force.
 *
 * @param washoutMillis after a switch of arm, units starting this long into the new window are left out: long
 *         against what a unit of the old arm still running needs to finish, short against the window
 */
public record SwitchbackSchedule(SwitchbackWindows windows, long washoutMillis)
{
    public SwitchbackSchedule
    {
        requireNonNull(windows, "windows is null");
        if (washoutMillis < 0 || washoutMillis >= windows.windowMillis()) {
            throw new IllegalArgumentException("expected a washout of 0 ms or more and shorter than the window (" + windows.windowMillis() + " ms), got " + washoutMillis);
        }
    }

    /** Why a unit is left out of the comparison. */
    public enum Exclusion
    {
        /** It started within the washout after a switch of arm. */
        WASHOUT,
        /** It ran into a window of the other arm. */
        SPANNING
    }

    /**
     * A unit's arm as drawn at its start.
     *
     * @param window the window it started in: with its host, the cluster its arm was drawn for
     * @param inWashout whether it started within the washout after a switch of arm
     */
    public record Start(long window, DrawnArm arm, boolean inWashout)
    {
        public Start
        {
            requireNonNull(arm, "arm is null");
        }
    }

    public static SwitchbackSchedule of(long seed, long windowMillis, long washoutMillis)
    {
        return new SwitchbackSchedule(new SwitchbackWindows(new ArmAssignment(seed), windowMillis), washoutMillis);
    }

    /**
     * A host's stratum from its key (a kernel boot id, a host name): the same key, the same number in every process
     * (FNV-1a of its UTF-8 bytes), never the stratum of whole processes.
     */
    public static long hostStratum(String hostKey)
    {
        requireNonNull(hostKey, "hostKey is null");
        long hash = 0xcbf29ce484222325L;
        for (byte b : hostKey.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash == ArmAssignment.PROCESSES ? hash + 1 : hash;
    }

    /** The cluster a unit of {@code hostKey}'s window {@code window} belongs to: units of one host and window share their arm and their moment. */
    public static String cluster(String hostKey, long window)
    {
        return requireNonNull(hostKey, "hostKey is null") + " window " + window;
    }

    /** The arm of a unit that starts at {@code startMillis} on host {@code host} under {@code directive}. */
    public Start start(long host, long startMillis, Directive directive)
    {
        requireNonNull(directive, "directive is null");
        return start(host, startMillis, window -> directive);
    }

    /**
     * The same where the directive changes at window boundaries: {@code directiveOfWindow} gives the directive in
     * force in each window (an engine applies a new directive from the next window on, so that a host never switches
     * arm within a window).
     */
    public Start start(long host, long startMillis, LongFunction<Directive> directiveOfWindow)
    {
        return start(host, startMillis, directiveOfWindow, WindowSteps.BASE);
    }

    /**
     * The same where windows grow by {@code steps} ({@link WindowLength}'s rule): the unit's window is the long window
     * holding its start, named by its first base window; the washout counts from that long window's start.
     */
    public Start start(long host, long startMillis, LongFunction<Directive> directiveOfWindow, WindowSteps steps)
    {
        requireNonNull(directiveOfWindow, "directiveOfWindow is null");
        requireNonNull(steps, "steps is null");
        long window = steps.windowOf(windowAt(startMillis));
        DrawnArm arm = drawn(host, window, directiveOfWindow, steps);
        boolean switched = window > 0 && drawn(host, steps.windowOf(window - 1), directiveOfWindow, steps).arm() != arm.arm();
        boolean inWashout = switched && startMillis - window * windows.windowMillis() < washoutMillis;
        return new Start(window, arm, inWashout);
    }

    /** The arm of {@code host}'s long window {@code window} (its first base window) under {@code steps}. */
    public DrawnArm drawn(long host, long window, LongFunction<Directive> directiveOfWindow, WindowSteps steps)
    {
        return steps.draw(windows.assignment(), directiveOfWindow.apply(window), host, window);
    }

    /** The window that holds {@code epochMillis}. */
    public long windowAt(long epochMillis)
    {
        return Math.max(0, windows.windowAt(epochMillis));
    }

    /**
     * Whether a unit that started as {@code start} and ended at {@code endMillis} is left out (the rule above);
     * later windows' arms are read under {@code directiveAtEnd}, the directive in force when it ended.
     */
    public Optional<Exclusion> exclusion(long host, Start start, long endMillis, Directive directiveAtEnd)
    {
        requireNonNull(directiveAtEnd, "directiveAtEnd is null");
        return exclusion(host, start, endMillis, window -> directiveAtEnd);
    }

    /** The same with the directive in force in each window. */
    public Optional<Exclusion> exclusion(long host, Start start, long endMillis, LongFunction<Directive> directiveOfWindow)
    {
        return exclusion(host, start, endMillis, directiveOfWindow, WindowSteps.BASE);
    }

    /** The same where windows grow by {@code steps}: the later long windows it ran into must all be of its arm. */
    public Optional<Exclusion> exclusion(long host, Start start, long endMillis, LongFunction<Directive> directiveOfWindow, WindowSteps steps)
    {
        requireNonNull(start, "start is null");
        requireNonNull(directiveOfWindow, "directiveOfWindow is null");
        requireNonNull(steps, "steps is null");
        if (start.inWashout()) {
            return Optional.of(Exclusion.WASHOUT);
        }
        long last = windowAt(endMillis);
        // A unit over this many windows is left out without drawing each of them.
        if (last - start.window() > 10_000) {
            return Optional.of(Exclusion.SPANNING);
        }
        for (long window = steps.nextWindow(start.window()); window <= last; window = steps.nextWindow(window)) {
            if (drawn(host, window, directiveOfWindow, steps).arm() != start.arm().arm()) {
                return Optional.of(Exclusion.SPANNING);
            }
        }
        return Optional.empty();
    }
}
