package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * The directive a host follows window by window: a new directive takes effect from the window after the one it
 * arrived in, so that a host never changes arm (or drawn share) within a window, where tasks of both arms would run
 * side by side without a washout. Immutable: {@link #receive} returns the next state.
 *
 * @param before the directive in force before {@code fromWindow}
 * @param after the directive in force from {@code fromWindow} on
 */
public record WindowedDirective(Directive before, Directive after, long fromWindow)
{
    public WindowedDirective
    {
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
    }

    public static WindowedDirective of(Directive directive)
    {
        return new WindowedDirective(directive, directive, 0);
    }

    /** The directive in force in {@code window}. */
    public Directive at(long window)
    {
        return window >= fromWindow ? after : before;
    }

    /** {@code latest} arrived in {@code window}: in force from the next window on (unchanged where it is the one already coming). */
    public WindowedDirective receive(Directive latest, long window)
    {
        requireNonNull(latest, "latest is null");
        if (latest.equals(after)) {
            return this;
        }
        return new WindowedDirective(at(window), latest, window + 1);
    }
}
