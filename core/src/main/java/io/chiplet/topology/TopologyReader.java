package io.chiplet.topology;

/** One source of topology facts (sysfs, hwloc XML, oshi), read on demand. */
@FunctionalInterface
public interface TopologyReader
{
    /**
     * @param virtualChipletCores when positive, split every chiplet into virtual chiplets of this many cores
     * @throws TopologyException naming the file or setting and what was expected when the source cannot be read
     */
    Topology read(int virtualChipletCores);
}
