/**
 * The machine model (CPU sets, cores and their kinds, caches, chiplets, dies, packages, NUMA nodes and memory kinds)
 * and its readers: a sysfs tree (live or a snapshot), an hwloc XML file, oshi. Chiplets are derived from the shared
 * caches; the process's affinity mask comes in through {@link io.chiplet.topology.AffinityMaskSource}, so reading
 * stays plain Java and a snapshot never consults the machine it runs on.
 *
 * <p>Allowed dependencies: {@code io.chiplet.nativeio}.
 */
package io.chiplet.topology;
