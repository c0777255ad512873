package io.chiplet.topology;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What kind of memory a NUMA node holds, as far as the machine says. A node with CPUs is {@link #DRAM}; a CPU-less
 * node is {@link #HBM} or {@link #CXL_PMEM} only on evidence (the kernel's memory tiers, HMAT bandwidth, hwloc's
 * subtype), {@link #GPU} only where a source names it (the NVIDIA driver's {@code numa_status}, hwloc's
 * {@code GPUMemory}), else {@link #UNKNOWN}.
 */
public enum MemoryKind
{
    DRAM, HBM, CXL_PMEM, GPU, UNKNOWN;

    /** The JSON spelling: {@code dram}, {@code hbm}, {@code cxl-pmem}, {@code gpu}, {@code unknown}. */
    public String jsonName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind whose {@link #jsonName()} is {@code name} (any case); empty for any other text. */
    public static Optional<MemoryKind> fromJsonName(String name)
    {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(kind -> kind.jsonName().equals(wanted)).findFirst();
    }
}
