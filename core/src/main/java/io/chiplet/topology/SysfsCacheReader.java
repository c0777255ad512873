package io.chiplet.topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.chiplet.topology.SysfsCpuReader.CPU_DIR;
import static java.util.Objects.requireNonNull;

/**
 * Reads the caches of level 2 and above from {@code sys/devices/system/cpu/cpuN/cache/indexK/}. A broken cache
 * directory makes that cache unknown, not discovery fail. Part of one {@link SysfsTopologyReader} discovery.
 */
final class SysfsCacheReader
{
    /** Largest cache size believed: 1 TiB. Larger numbers are garbage (a 1.4 EB "cache"), not caches. */
    static final long MAX_CACHE_BYTES = 1L << 40;

    /** What a cache index number holds, the same on every CPU. */
    private record CacheIndex(int level, CacheType type, int lineSizeBytes) {}

    private final SysfsFiles files;
    private final Unknowns unknowns;

    SysfsCacheReader(SysfsFiles files, Unknowns unknowns)
    {
        this.files = requireNonNull(files, "files is null");
        this.unknowns = requireNonNull(unknowns, "unknowns is null");
    }

    /**
     * Reads each cache instance once, from the first online CPU it covers. The kernel numbers a CPU's cache
     * indexes in the same per-level order on every CPU (L1d, L1i, L2, L3), so an index's level and type are read
     * once, on the first CPU that has it, with its line size (the same for every instance of an index), and L1
     * and instruction indexes are never opened again. Only the first thread of a core looks for indexes beyond
     * those known, and only when it has just read a new instance of the deepest one: a cache further out serves
     * every CPU the deepest known cache serves, so one look per instance of that cache finds it.
     */
    List<Cache> read(CpuSet online, List<Core> cores)
    {
        BitSet firstThreads = new BitSet();
        Map<Integer, CpuSet> coreOf = new HashMap<>();
        for (Core core : cores) {
            firstThreads.set(core.firstCpu());
            core.cpus().stream().forEach(cpu -> coreOf.put(cpu, core.cpus()));
        }
        // cache directories whose list of sharing CPUs is empty, each then taken as its core's
        List<String> emptyLists = new ArrayList<>();
        // cache directories whose list leaves out the CPU it belongs to, each then read from its mask
        List<String> listsWithoutTheirCpu = new ArrayList<>();
        BitSet onlineBits = online.toBitSet();
        List<CacheIndex> layout = new ArrayList<>();
        List<BitSet> coveredByIndex = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        // the directory each cache was read from, to name both files when two instances contradict each other
        Map<Cache, String> readFrom = new HashMap<>();
        BitSet withoutCaches = new BitSet();
        // an index whose level or type is broken is unknown, and so is every index after it (their order is lost)
        int brokenIndex = Integer.MAX_VALUE;

        for (int cpu = onlineBits.nextSetBit(0); cpu >= 0; cpu = onlineBits.nextSetBit(cpu + 1)) {
            String cacheDir = CPU_DIR + "cpu" + cpu + "/cache/index";
            // whether this CPU read the instance of the previous index itself (L1 and instruction indexes count as read)
            boolean readPrevious = true;
            for (int index = 0; index < brokenIndex; index++) {
                if (index == layout.size()) {
                    String dir = cacheDir + index + "/";
                    if (!firstThreads.get(cpu) || !readPrevious || !files.exists(dir + "level")) {
                        if (index == 0) {
                            withoutCaches.set(cpu);
                        }
                        break;
                    }
                    Optional<CacheIndex> kind = unknowns.degrade("caches from index" + index + " on", () -> readCacheIndex(dir));
                    if (kind.isEmpty()) {
                        brokenIndex = index;
                        break;
                    }
                    layout.add(kind.get());
                    coveredByIndex.add(new BitSet());
                }
                CacheIndex kind = layout.get(index);
                BitSet covered = coveredByIndex.get(index);
                if (kind.level() < 2 || kind.type() == CacheType.INSTRUCTION) {
                    readPrevious = true;
                    continue;
                }
                if (covered.get(cpu)) {
                    readPrevious = false;
                    continue;
                }
                readPrevious = true;
                String dir = cacheDir + index + "/";
                int reader = cpu;
                Optional<Optional<CpuSet>> read = unknowns.degrade("cache " + dir, () -> files.readCpus(dir, "shared_cpu_list", "shared_cpu_map"));
                if (read.isEmpty()) {
                    covered.set(cpu);
                    continue;
                }
                Optional<CpuSet> list = read.get();
                if (list.isPresent() && !list.get().isEmpty() && !list.get().contains(cpu)) {
                    // a list that leaves out its own CPU is broken (a dump's stale copy): the kernel prints the list and
                    // the mask from one cpumask, and hwloc reads the mask, so the mask is taken where it holds the CPU
                    String mask = dir + "shared_cpu_map";
                    Optional<CpuSet> fromMask = unknowns.degrade("cache " + dir, () -> files.read(mask).map(text -> SysfsFiles.parseMask(mask, text)))
                            .flatMap(found -> found).filter(found -> found.contains(reader));
                    if (fromMask.isPresent()) {
                        listsWithoutTheirCpu.add(dir + "shared_cpu_list (" + list.get() + ") leaves out CPU " + cpu + "; shared_cpu_map (" + fromMask.get() + ")");
                        list = fromMask;
                    }
                }
                if (list.isEmpty()) {
                    if (!files.exists(dir)) {
                        // this CPU has fewer cache indexes than others (or none at all)
                        if (index == 0) {
                            withoutCaches.set(cpu);
                        }
                        break;
                    }
                    unknowns.add("CPUs sharing " + dir + ": no shared_cpu_list or shared_cpu_map; assuming CPU " + cpu + " alone");
                }
                BitSet shared = list.map(CpuSet::toBitSet).orElseGet(BitSet::new);
                if (list.isPresent() && shared.isEmpty()) {
                    // IA-64 firmware without PAL_CACHE_SHARED_INFO leaves every shared_cpu_map empty; hwloc then takes
                    // the cache as private to the core (its thread siblings), and so do we
                    emptyLists.add(dir);
                    shared = coreOf.getOrDefault(cpu, CpuSet.of(cpu)).toBitSet();
                }
                shared.and(onlineBits);
                shared.set(reader);
                Optional<Long> size = unknowns.degrade("cache " + dir, () -> files.read(dir + "size").map(text -> parseSize(dir + "size", text)).orElse(0L));
                if (size.isEmpty()) {
                    covered.set(cpu);
                    continue;
                }
                covered.or(shared);
                Cache cache = new Cache(kind.level(), kind.type(), size.get(), kind.lineSizeBytes(), CpuSet.fromBitSet(shared));
                // an instance is new to its index (it holds this CPU, which no earlier one did), but another index of
                // the same level and type may have listed the same cache: it is one cache, listed once
                if (!hasTwin(layout, index) || !caches.contains(cache)) {
                    caches.add(cache);
                    readFrom.putIfAbsent(cache, dir);
                }
            }
        }
        if (!emptyLists.isEmpty()) {
            unknowns.add("CPUs sharing caches: " + emptyLists.size() + " cache directories list no CPU (" + emptyLists.get(0)
                    + "shared_cpu_map is empty, as IA-64 firmware without cache-sharing information leaves it); each is taken as private to its core, as hwloc takes it");
        }
        if (!listsWithoutTheirCpu.isEmpty()) {
            unknowns.add("CPUs sharing caches: " + listsWithoutTheirCpu.size() + " cache directories list CPUs without the CPU they belong to ("
                    + listsWithoutTheirCpu.get(0) + " read instead); each such list is taken from its shared_cpu_map, as hwloc reads it");
        }
        if (!withoutCaches.isEmpty()) {
            unknowns.add("caches of CPUs " + CpuSet.fromBitSet(withoutCaches) + ": no " + CPU_DIR + "cpuN/cache directory");
        }
        List<Cache> sorted = new ArrayList<>(withoutContradictions(caches, readFrom));
        sorted.sort(Comparator.comparingInt(Cache::level).thenComparingInt(cache -> cache.cpus().first()));
        return List.copyOf(sorted);
    }

    private CacheIndex readCacheIndex(String dir)
    {
        int level = SysfsFiles.parseInt(dir + "level", files.readRequired(dir + "level", "a cache level"));
        if (level < 1 || level > 9) {
            throw new TopologyException(dir + "level: expected a cache level from 1 to 9 but found " + level);
        }
        CacheType type = parseType(dir + "type", files.readRequired(dir + "type", "Data, Instruction or Unified"));
        int lineSize = files.readInt(dir + "coherency_line_size").orElse(0);
        if (lineSize < 0) {
            throw new TopologyException(dir + "coherency_line_size: expected a non-negative byte count but found " + lineSize);
        }
        return new CacheIndex(level, type, lineSize);
    }

    /**
     * Instances of one level and type either hold the same CPUs or none in common; a kernel (or dump) whose lists
     * overlap otherwise contradicts itself, and no chiplet could lie within both. Both instances are dropped, naming the
     * two files, rather than put a CPU in two chiplets or guess which file lies; the level's other instances stay (hwloc
     * keeps the instance it read first and drops the other, so CPUs of the dropped one sit in no cache of that level).
     * The CPUs of dropped L3s form chiplets of their own, by package and node ({@link L3Placement#CONTRADICTORY}).
     */
    private List<Cache> withoutContradictions(List<Cache> caches, Map<Cache, String> readFrom)
    {
        List<Cache> dropped = new ArrayList<>();
        for (int i = 0; i < caches.size(); i++) {
            for (int j = i + 1; j < caches.size(); j++) {
                Cache a = caches.get(i);
                Cache b = caches.get(j);
                if (a.level() == b.level() && a.type() == b.type() && a.cpus().intersects(b.cpus()) && !a.cpus().equals(b.cpus())) {
                    unknowns.add(contradictionPrefix(a.level()) + readFrom.get(a) + " (" + a.cpus() + ") and " + readFrom.get(b) + " (" + b.cpus()
                            + ") overlap without being equal; both are dropped, so CPUs " + a.cpus().union(b.cpus()) + " have no L" + a.level() + " "
                            + a.type().name().toLowerCase(java.util.Locale.ROOT) + " cache; the level's other caches are kept");
                    dropped.add(a);
                    dropped.add(b);
                }
            }
        }
        List<Cache> kept = new ArrayList<>(caches);
        kept.removeIf(cache -> dropped.stream().anyMatch(other -> other == cache));
        return kept;
    }

    /** How the sentence in {@link Topology#unknowns()} begins that says caches of {@code level} contradicted each other. */
    static String contradictionPrefix(int level)
    {
        return "L" + level + " caches: ";
    }

    /** Whether another cache index has the level and type of {@code index}. */
    private static boolean hasTwin(List<CacheIndex> layout, int index)
    {
        CacheIndex kind = layout.get(index);
        for (int other = 0; other < layout.size(); other++) {
            if (other != index && layout.get(other).level() == kind.level() && layout.get(other).type() == kind.type()) {
                return true;
            }
        }
        return false;
    }

    static CacheType parseType(String file, String text)
    {
        try {
            return CacheType.fromSysfs(text);
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(file + ": " + e.getMessage());
        }
    }

    /** sysfs cache sizes are a number of ASCII digits with a K (or M, G) suffix: {@code 32K}, {@code 28160K}. */
    static long parseSize(String file, String text)
    {
        String s = FileText.value(text).strip();
        long multiplier = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> multiplier = 1L << 10;
                case 'M' -> multiplier = 1L << 20;
                case 'G' -> multiplier = 1L << 30;
                default -> multiplier = 1;
            }
        }
        String digits = multiplier == 1 ? s : s.substring(0, s.length() - 1);
        long value;
        try {
            value = SysfsFiles.parseLong(file, digits);
        }
        catch (TopologyException e) {
            value = -1;
        }
        if (value < 0 || value > MAX_CACHE_BYTES / multiplier) {
            throw new TopologyException(file + ": expected a size like 32K of at most 1T but found " + FileText.quote(s));
        }
        return value * multiplier;
    }
}
