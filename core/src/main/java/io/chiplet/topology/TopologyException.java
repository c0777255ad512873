package io.chiplet.topology;

/**
 * A topology source could not be read, or a fact it must provide made no sense. The message names the file
 * (relative to the filesystem root a sysfs reader was given) or setting and what was expected, so the CLI can
 * print it as one line.
 */
public final class TopologyException
        extends RuntimeException
{
    public TopologyException(String message)
    {
        super(message);
    }

    public TopologyException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
