package io.chiplet.trino.connector;

/**
 * A node's thread placement as a JMX bean, {@code io.chiplet.trino:type=Placement,name=<catalog>}, so that Trino's JMX
 * connector ({@code SELECT * FROM jmx.current."io.chiplet.trino:type=placement,name=chiplet"}) and any JMX scraper
 * read it: the figures of the catalog's {@code runtime.status} row, and threads per chiplet. Text figures are empty
 * where the status row has none.
 */
public interface ChipletPlacementMXBean
{
    boolean isPlacing();

    String getPolicy();

    String getTopologySource();

    long getThreads();

    /** {@code chiplet=threads,...}, chiplets in order; threads placed on no one chiplet are left out. */
    String getThreadsPerChiplet();

    String getProblem();

    String getPlacingOnCpus();

    long getCpusetChanges();

    long getUsableChiplets();

    long getUsableCores();
}
