package io.chiplet.perf;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.chiplet.perf.PerfEventSyscalls.PERF_COUNT_HW_CACHE_L1D;
import static io.chiplet.perf.PerfEventSyscalls.PERF_COUNT_HW_CACHE_LL;
import static io.chiplet.perf.PerfEventSyscalls.PERF_COUNT_HW_CACHE_OP_READ;
import static io.chiplet.perf.PerfEventSyscalls.PERF_COUNT_HW_CACHE_RESULT_ACCESS;
import static io.chiplet.perf.PerfEventSyscalls.PERF_COUNT_HW_CACHE_RESULT_MISS;
import static io.chiplet.perf.PerfEventSyscalls.PERF_TYPE_HARDWARE;
import static io.chiplet.perf.PerfEventSyscalls.PERF_TYPE_HW_CACHE;
import static io.chiplet.perf.PerfEventSyscalls.PERF_TYPE_RAW;
import static java.util.Objects.requireNonNull;

/**
 * The events this machine could count: kernel software events (always listed), the kernel's generic hardware and
 * cache events, and the vendor events that split data-cache fills by source, CHARM's signal, chosen from the CPU's
 * vendor, family and model. Which of them can actually be opened here is {@link CounterAvailability}'s question.
 *
 * @param cpu the CPU identity, when {@code proc/cpuinfo} named one
 * @param microarchitecture the recognised microarchitecture
 * @param fillSources the vendor fill-by-source events, empty when none are known for this CPU
 * @param fillSourcesUnknownReason why {@code fillSources} is empty, when it is
 */
public record EventCatalog(
        Optional<CpuIdentity> cpu,
        Optional<Microarchitecture> microarchitecture,
        List<PerfEvent> software,
        List<PerfEvent> hardware,
        List<FillSourceEvent> fillSources,
        Optional<String> fillSourcesUnknownReason)
{
    public static final PerfEvent TASK_CLOCK = PerfEvent.software("task-clock", PerfEventSyscalls.PERF_COUNT_SW_TASK_CLOCK,
            "nanoseconds the thread was on a CPU");
    public static final PerfEvent CPU_CLOCK = PerfEvent.software("cpu-clock", PerfEventSyscalls.PERF_COUNT_SW_CPU_CLOCK,
            "nanoseconds of the per-CPU high-resolution timer while counting");
    public static final PerfEvent CONTEXT_SWITCHES = PerfEvent.software("context-switches", PerfEventSyscalls.PERF_COUNT_SW_CONTEXT_SWITCHES,
            "times the thread was switched off a CPU");
    public static final PerfEvent CPU_MIGRATIONS = PerfEvent.software("cpu-migrations", PerfEventSyscalls.PERF_COUNT_SW_CPU_MIGRATIONS,
            "times the thread moved to another CPU");
    public static final PerfEvent PAGE_FAULTS = PerfEvent.software("page-faults", PerfEventSyscalls.PERF_COUNT_SW_PAGE_FAULTS,
            "page faults (minor and major)");
    public static final PerfEvent MINOR_FAULTS = PerfEvent.software("minor-faults", PerfEventSyscalls.PERF_COUNT_SW_PAGE_FAULTS_MIN,
            "page faults served without I/O: mostly first touches of new memory");

    public static final PerfEvent CYCLES = new PerfEvent("cycles", PERF_TYPE_HARDWARE, PerfEventSyscalls.PERF_COUNT_HW_CPU_CYCLES, 0,
            "core clock cycles");
    public static final PerfEvent INSTRUCTIONS = new PerfEvent("instructions", PERF_TYPE_HARDWARE, PerfEventSyscalls.PERF_COUNT_HW_INSTRUCTIONS, 0,
            "retired instructions");
    public static final PerfEvent CACHE_REFERENCES = new PerfEvent("cache-references", PERF_TYPE_HARDWARE, PerfEventSyscalls.PERF_COUNT_HW_CACHE_REFERENCES, 0,
            "last-level cache accesses, as the vendor defines them");
    public static final PerfEvent CACHE_MISSES = new PerfEvent("cache-misses", PERF_TYPE_HARDWARE, PerfEventSyscalls.PERF_COUNT_HW_CACHE_MISSES, 0,
            "last-level cache misses, as the vendor defines them");
    public static final PerfEvent L1D_READ_MISSES = cacheEvent("L1-dcache-load-misses", PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_RESULT_MISS,
            "L1 data cache read misses");
    public static final PerfEvent LLC_READS = cacheEvent("LLC-loads", PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_RESULT_ACCESS,
            "last-level cache reads");
    public static final PerfEvent LLC_READ_MISSES = cacheEvent("LLC-load-misses", PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_RESULT_MISS,
            "last-level cache read misses");

    /** Software events the kernel raises only in kernel mode: with {@code exclude_kernel} they always read 0. */
    public static final Set<PerfEvent> KERNEL_MODE_ONLY = Set.of(CONTEXT_SWITCHES, CPU_MIGRATIONS);

    public static final List<PerfEvent> SOFTWARE_EVENTS = List.of(TASK_CLOCK, CPU_CLOCK, CONTEXT_SWITCHES, CPU_MIGRATIONS, PAGE_FAULTS, MINOR_FAULTS);
    public static final List<PerfEvent> HARDWARE_EVENTS = List.of(CYCLES, INSTRUCTIONS, CACHE_REFERENCES, CACHE_MISSES, L1D_READ_MISSES, LLC_READS, LLC_READ_MISSES);

    public EventCatalog
    {
        requireNonNull(cpu, "cpu is null");
        requireNonNull(microarchitecture, "microarchitecture is null");
        software = List.copyOf(requireNonNull(software, "software is null"));
        hardware = List.copyOf(requireNonNull(hardware, "hardware is null"));
        fillSources = List.copyOf(requireNonNull(fillSources, "fillSources is null"));
        requireNonNull(fillSourcesUnknownReason, "fillSourcesUnknownReason is null");
        if (fillSources.isEmpty() == fillSourcesUnknownReason.isEmpty()) {
            throw new IllegalArgumentException("a catalog has fill-source events or a reason why not, exactly one of them");
        }
    }

    public static EventCatalog forMachine(Path fsRoot)
    {
        return select(PerfPlatform.read(fsRoot));
    }

    /** The catalog for a platform; vendor events use the core PMU's type id when sysfs names one. */
    public static EventCatalog select(PerfPlatform platform)
    {
        int rawType = platform.corePmu().map(Map.Entry::getValue).orElse(PERF_TYPE_RAW);
        Optional<CpuIdentity> cpu = platform.cpu();
        Optional<Microarchitecture> microarchitecture = cpu.flatMap(Microarchitecture::of);
        List<FillSourceEvent> fills = microarchitecture.map(arch -> fillSourceEvents(arch, rawType)).orElse(List.of());
        Optional<String> reason = Optional.empty();
        if (fills.isEmpty()) {
            reason = Optional.of(cpu
                    .map(identity -> "unknown CPU model for fill-source events: " + identity
                            + microarchitecture.map(arch -> " is " + arch.displayName() + ", which has no per-source fill events").orElse(""))
                    .orElse("unknown CPU: proc/cpuinfo names no vendor, family and model"));
        }
        return new EventCatalog(cpu, microarchitecture, SOFTWARE_EVENTS, HARDWARE_EVENTS, fills, reason);
    }

    /** The fill-source events that count remote-chiplet fills: CHARM's signal. */
    public List<FillSourceEvent> remoteFillSources()
    {
        return fillSources.stream().filter(fill -> fill.source().remote()).toList();
    }

    /**
     * The vendor fill-by-source events of a microarchitecture, encoded for {@code perf_event_attr}.
     *
     * <p>AMD: {@code config = event[7:0] | umask << 8 | event[11:8] << 32}. Event 0x43 on Zen 2
     * ({@code ls_refills_from_sys}, demand fills) and 0x44 on Zen 3/4/5 ({@code ls_any_fills_from_sys}, demand
     * and prefetch fills), umasks from torvalds/linux {@code tools/perf/pmu-events/arch/x86/amdzen2/cache.json},
     * {@code amdzen3/memory.json}, {@code amdzen4/cache.json} and {@code amdzen5/load-store.json}. Zen 2 has no
     * umask for "another CCX of the same node": those fills count under its local-cache umask 0x02, so the Zen 2
     * remote signal sees only other-node traffic.
     *
     * <p>Intel: OFFCORE_RESPONSE ({@code OCR.DEMAND_DATA_RD.*}), {@code config = event | umask << 8} and
     * {@code config1} the response-type MSR value (MSR 0x1a6/0x1a7). Event 0xB7 umask 0x01 on Ice Lake-SP
     * ({@code tools/perf/pmu-events/arch/x86/icelakex/memory.json}), event 0x2A umask 0x01 on Sapphire Rapids and
     * Emerald Rapids ({@code sapphirerapids/memory.json}, {@code emeraldrapids/memory.json}); the MSR values
     * LOCAL_DRAM 0x104000001, SNC_DRAM 0x708000001 and REMOTE_DRAM 0x730000001 are icelakex's; the 0x2A tables
     * carry the same LOCAL_DRAM value, and the same response encoding is assumed for the other two (to be checked on
     * a Sapphire Rapids host with {@code perf list -v ocr.demand_data_rd}).
     * Two offcore MSRs exist, so at most two of these count at once without multiplexing.
     */
    static List<FillSourceEvent> fillSourceEvents(Microarchitecture microarchitecture, int rawType)
    {
        return switch (microarchitecture) {
            case AMD_ZEN1 -> List.of();
            case AMD_ZEN2 -> List.of(
                    amd(rawType, "ls_refills_from_sys.ls_mabresp_lcl_l2", 0x43, 0x01, FillSource.LOCAL_L2),
                    amd(rawType, "ls_refills_from_sys.ls_mabresp_lcl_cache", 0x43, 0x02, FillSource.LOCAL_CCX),
                    amd(rawType, "ls_refills_from_sys.ls_mabresp_lcl_dram", 0x43, 0x08, FillSource.LOCAL_DRAM),
                    amd(rawType, "ls_refills_from_sys.ls_mabresp_rmt_cache", 0x43, 0x10, FillSource.OTHER_NODE_CACHE),
                    amd(rawType, "ls_refills_from_sys.ls_mabresp_rmt_dram", 0x43, 0x40, FillSource.REMOTE_DRAM));
            case AMD_ZEN3 -> List.of(
                    amd(rawType, "ls_any_fills_from_sys.lcl_l2", 0x44, 0x01, FillSource.LOCAL_L2),
                    amd(rawType, "ls_any_fills_from_sys.int_cache", 0x44, 0x02, FillSource.LOCAL_CCX),
                    amd(rawType, "ls_any_fills_from_sys.ext_cache_local", 0x44, 0x04, FillSource.OTHER_CCX_SAME_NODE),
                    amd(rawType, "ls_any_fills_from_sys.mem_io_local", 0x44, 0x08, FillSource.LOCAL_DRAM),
                    amd(rawType, "ls_any_fills_from_sys.ext_cache_remote", 0x44, 0x10, FillSource.OTHER_NODE_CACHE),
                    amd(rawType, "ls_any_fills_from_sys.mem_io_remote", 0x44, 0x40, FillSource.REMOTE_DRAM));
            case AMD_ZEN4, AMD_ZEN5 -> List.of(
                    amd(rawType, "ls_any_fills_from_sys.local_l2", 0x44, 0x01, FillSource.LOCAL_L2),
                    amd(rawType, "ls_any_fills_from_sys.local_ccx", 0x44, 0x02, FillSource.LOCAL_CCX),
                    amd(rawType, "ls_any_fills_from_sys.near_cache", 0x44, 0x04, FillSource.OTHER_CCX_SAME_NODE),
                    amd(rawType, "ls_any_fills_from_sys.dram_io_near", 0x44, 0x08, FillSource.LOCAL_DRAM),
                    amd(rawType, "ls_any_fills_from_sys.far_cache", 0x44, 0x10, FillSource.OTHER_NODE_CACHE),
                    amd(rawType, "ls_any_fills_from_sys.dram_io_far", 0x44, 0x40, FillSource.REMOTE_DRAM));
            case INTEL_ICELAKE_SP -> intelOffcore(rawType, 0xb7);
            case INTEL_SAPPHIRE_RAPIDS, INTEL_EMERALD_RAPIDS -> intelOffcore(rawType, 0x2a);
        };
    }

    private static List<FillSourceEvent> intelOffcore(int rawType, int eventCode)
    {
        return List.of(
                intel(rawType, "OCR.DEMAND_DATA_RD.LOCAL_DRAM", eventCode, 0x104000001L, FillSource.LOCAL_DRAM),
                intel(rawType, "OCR.DEMAND_DATA_RD.SNC_DRAM", eventCode, 0x708000001L, FillSource.SNC_NEIGHBOUR_DRAM),
                intel(rawType, "OCR.DEMAND_DATA_RD.REMOTE_DRAM", eventCode, 0x730000001L, FillSource.REMOTE_DRAM));
    }

    static long amdConfig(int event, int umask)
    {
        return (event & 0xffL) | ((long) umask << 8) | ((event & 0xf00L) << 24);
    }

    private static FillSourceEvent amd(int rawType, String name, int event, int umask, FillSource source)
    {
        return new FillSourceEvent(new PerfEvent(name, rawType, amdConfig(event, umask), 0, "data cache fills from " + source.description()), source);
    }

    private static FillSourceEvent intel(int rawType, String name, int event, long responseMsr, FillSource source)
    {
        long config = event | (0x01L << 8);
        return new FillSourceEvent(new PerfEvent(name, rawType, config, responseMsr, "demand data reads that missed L3, served by " + source.description()), source);
    }

    private static PerfEvent cacheEvent(String name, long cache, long result, String description)
    {
        return new PerfEvent(name, PERF_TYPE_HW_CACHE, cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (result << 16), 0, description);
    }
}
