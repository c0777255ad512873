package io.chiplet.topology;

/**
 * PLACEHOLDER written on the {@code cli} branch so that {@code TopologyCommand} compiles; the discovery branch
 * owns the real class. Drop this file at merge.
 */
public class TopologyException
        extends RuntimeException
{
    public TopologyException(String message)
    {
        super(message);
    }
}
