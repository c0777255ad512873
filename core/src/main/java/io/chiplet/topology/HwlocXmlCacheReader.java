package io.chiplet.topology;

import org.w3c.dom.Element;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The CPU caches of an hwloc XML file: hwloc 2.x's {@code L<n>Cache} and {@code L<n>iCache} objects and hwloc 1.x's
 * {@code Cache} (its level in {@code depth}). hwloc's MemCache (a memory-side cache in front of a NUMA node) is not one.
 */
final class HwlocXmlCacheReader
{
    private static final Pattern DATA_CACHE_TYPE = Pattern.compile("L([1-9])Cache");
    private static final Pattern INSTRUCTION_CACHE_TYPE = Pattern.compile("L([1-9])iCache");

    private final HwlocXmlElements elements;
    private final HwlocXmlCpus cpus;

    HwlocXmlCacheReader(HwlocXmlElements elements, HwlocXmlCpus cpus)
    {
        this.elements = requireNonNull(elements, "elements is null");
        this.cpus = requireNonNull(cpus, "cpus is null");
    }

    /** The cache an object of this type is, if it is a CPU cache with online CPUs. */
    Optional<Cache> cache(Element object, String type)
    {
        int level;
        CacheType cacheType;
        Matcher data = DATA_CACHE_TYPE.matcher(type);
        Matcher instruction = INSTRUCTION_CACHE_TYPE.matcher(type);
        if (data.matches()) {
            level = Integer.parseInt(data.group(1));
            cacheType = cacheType(object);
        }
        else if (instruction.matches()) {
            level = Integer.parseInt(instruction.group(1));
            cacheType = CacheType.INSTRUCTION;
        }
        else if (type.equals("Cache")) {
            // hwloc 1.x: one type for every level, the level in "depth"
            level = elements.intAttribute(object, "depth");
            cacheType = cacheType(object);
        }
        else {
            return Optional.empty();
        }
        CpuSet cacheCpus = cpus.of(object);
        if (cacheCpus.isEmpty()) {
            return Optional.empty();
        }
        if (level < 1 || level > 9) {
            throw elements.invalid(object, "depth", "a cache level from 1 to 9");
        }
        long size = object.hasAttribute("cache_size") ? elements.longAttribute(object, "cache_size") : 0;
        if (size < 0 || size > SysfsCacheReader.MAX_CACHE_BYTES) {
            throw elements.invalid(object, "cache_size", "a byte count from 0 to " + SysfsCacheReader.MAX_CACHE_BYTES);
        }
        int lineSize = object.hasAttribute("cache_linesize") ? elements.intAttribute(object, "cache_linesize") : 0;
        return Optional.of(new Cache(level, cacheType, size, Math.max(lineSize, 0), cacheCpus));
    }

    private CacheType cacheType(Element object)
    {
        if (!object.hasAttribute("cache_type")) {
            return CacheType.UNIFIED;
        }
        // hwloc_obj_cache_type_e
        return switch (elements.intAttribute(object, "cache_type")) {
            case 0 -> CacheType.UNIFIED;
            case 1 -> CacheType.DATA;
            case 2 -> CacheType.INSTRUCTION;
            default -> throw elements.invalid(object, "cache_type", "0 (unified), 1 (data) or 2 (instruction)");
        };
    }
}
