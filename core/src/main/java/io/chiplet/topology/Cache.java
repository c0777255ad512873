package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/**
 * One cache instance: its level, type, size and line size (0 when unknown) and the online CPUs sharing it.
 */
public record Cache(int level, CacheType type, long sizeBytes, int lineSizeBytes, CpuSet cpus)
{
    public Cache
    {
        requireNonNull(type, "type is null");
        requireNonNull(cpus, "cpus is null");
        if (level < 1) {
            throw new IllegalArgumentException("cache level must be positive: " + level);
        }
        if (sizeBytes < 0 || lineSizeBytes < 0) {
            throw new IllegalArgumentException("cache sizes must not be negative");
        }
    }
}
