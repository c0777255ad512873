package io.chiplet.nativeio;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * How this JVM reaches the kernel for pinning, memory binding and counters, and why: the JDK's Foreign Function &amp;
 * Memory API where the JVM has it (22+), JNA direct mapping where it does not (JDK 17 and 21), or neither.
 *
 * @param kind the path taken
 * @param reason one line saying why, for logs, metrics and {@code chiplet topology}
 */
public record NativePath(Kind kind, String reason)
{
    public enum Kind
    {
        FFM, JNA, NONE;

        /** The lower-case name used in settings and output: {@code ffm}, {@code jna}, {@code none}. */
        public String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public NativePath
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(reason, "reason is null");
    }

    public boolean available()
    {
        return kind != Kind.NONE;
    }

    /** {@code ffm (JDK 25: the JDK's foreign function API)}. */
    @Override
    public String toString()
    {
        return kind.label() + " (" + reason + ")";
    }
}
