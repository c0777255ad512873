package io.chiplet.topology;

/**
 * A topology source could not be read: the message names the file or setting and what was expected there, so that
 * the CLI can print it as one line.
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
