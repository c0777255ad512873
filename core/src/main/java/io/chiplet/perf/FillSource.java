package io.chiplet.perf;

/**
 * Where a data-cache fill (or an L3-missing demand read) was served from, seen from the requesting core's
 * chiplet. {@link #remote()} marks the sources CHARM's signal counts: data that lived outside the core's own
 * chiplet (CCX / SNC domain).
 */
public enum FillSource
{
    LOCAL_L2("local L2", false),
    LOCAL_CCX("L3 or another L2 of the same CCX", false),
    OTHER_CCX_SAME_NODE("cache of another CCX in the same NUMA node", true),
    LOCAL_DRAM("DRAM of the local NUMA node / SNC domain", false),
    SNC_NEIGHBOUR_DRAM("DRAM of another SNC domain of the same socket", true),
    OTHER_NODE_CACHE("cache of a CCX in another NUMA node", true),
    REMOTE_DRAM("DRAM of another NUMA node or socket", true);

    private final String description;
    private final boolean remote;

    FillSource(String description, boolean remote)
    {
        this.description = description;
        this.remote = remote;
    }

    public String description()
    {
        return description;
    }

    public boolean remote()
    {
        return remote;
    }
}
