package io.chiplet.settings;

import static java.util.Objects.requireNonNull;

/**
 * A {@link ValueParser} could not use a value; carries what it expected, for the reader to report with
 * the setting's name. Control flow for bad input, so it skips the stack trace.
 */
public final class UnusableValueException
        extends RuntimeException
{
    private final String expected;

    public UnusableValueException(String expected)
    {
        super(requireNonNull(expected, "expected is null"), null, false, false);
        this.expected = expected;
    }

    public String expected()
    {
        return expected;
    }
}
