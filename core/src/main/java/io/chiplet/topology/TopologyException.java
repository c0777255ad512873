package io.chiplet.topology;

/**
 * A fact the machine must provide could not be read or made no sense. The message names the file (relative to
 * the filesystem root the reader was given) and what was expected, so it can be shown to a user as it is.
 */
public class TopologyException
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
