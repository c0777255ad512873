/**
 * The one entry point to learn the machine ({@link io.chiplet.discovery.TopologyDiscovery}): picks the topology
 * source (hwloc XML, a sysfs snapshot, the live sysfs, oshi) and, for the live machine only, wires in the
 * process's affinity mask from {@code io.chiplet.affinity}. It sits above both so that topology never depends on
 * affinity.
 *
 * <p>Allowed dependencies: {@code io.chiplet.topology}, {@code io.chiplet.affinity}.
 */
package io.chiplet.discovery;
