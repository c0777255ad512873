package io.chiplet.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.chiplet.perf.FillSource.LOCAL_CCX;
import static io.chiplet.perf.FillSource.LOCAL_DRAM;
import static io.chiplet.perf.FillSource.LOCAL_L2;
import static io.chiplet.perf.FillSource.OTHER_CCX_SAME_NODE;
import static io.chiplet.perf.FillSource.OTHER_NODE_CACHE;
import static io.chiplet.perf.FillSource.REMOTE_DRAM;
import static io.chiplet.perf.FillSource.SNC_NEIGHBOUR_DRAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventCatalogTest
{
    @TempDir
    Path root;

    @Test
    void zen3MilanUsesAnyFillsFromSysWithAllSixSources()
    {
        EventCatalog catalog = catalog(CpuIdentity.AMD, 0x19, 0x01, "AMD EPYC 7763 64-Core Processor");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.AMD_ZEN3);
        assertThat(sources(catalog)).containsExactly(LOCAL_L2, LOCAL_CCX, OTHER_CCX_SAME_NODE, LOCAL_DRAM, OTHER_NODE_CACHE, REMOTE_DRAM);
        assertThat(configs(catalog)).containsExactly(0x0144L, 0x0244L, 0x0444L, 0x0844L, 0x1044L, 0x4044L);
        assertThat(catalog.fillSources()).allSatisfy(fill -> {
            assertThat(fill.event().type()).isEqualTo(4);
            assertThat(fill.event().config1()).isZero();
        });
        assertThat(catalog.remoteFillSources()).extracting(fill -> fill.event().name())
                .containsExactly("ls_any_fills_from_sys.ext_cache_local", "ls_any_fills_from_sys.ext_cache_remote", "ls_any_fills_from_sys.mem_io_remote");
        assertThat(catalog.fillSourcesUnknownReason()).isEmpty();
    }

    @Test
    void zen3ModelRangesFollowPerfMapfile()
    {
        // family 0x19: models 0x00-0x0f and 0x20-0x5f are Zen 3, the rest Zen 4
        assertThat(catalog(CpuIdentity.AMD, 0x19, 0x21, "Ryzen 5000").microarchitecture()).contains(Microarchitecture.AMD_ZEN3);
        assertThat(catalog(CpuIdentity.AMD, 0x19, 0x5f, "Ryzen 5000G").microarchitecture()).contains(Microarchitecture.AMD_ZEN3);
        assertThat(catalog(CpuIdentity.AMD, 0x19, 0x10, "EPYC 9654").microarchitecture()).contains(Microarchitecture.AMD_ZEN4);
        assertThat(catalog(CpuIdentity.AMD, 0x19, 0x61, "Ryzen 7000").microarchitecture()).contains(Microarchitecture.AMD_ZEN4);
    }

    @Test
    void zen4GenoaUsesTheRenamedUmasks()
    {
        EventCatalog catalog = catalog(CpuIdentity.AMD, 0x19, 0x11, "AMD EPYC 9654 96-Core Processor");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.AMD_ZEN4);
        assertThat(catalog.fillSources()).extracting(fill -> fill.event().name()).containsExactly(
                "ls_any_fills_from_sys.local_l2",
                "ls_any_fills_from_sys.local_ccx",
                "ls_any_fills_from_sys.near_cache",
                "ls_any_fills_from_sys.dram_io_near",
                "ls_any_fills_from_sys.far_cache",
                "ls_any_fills_from_sys.dram_io_far");
        assertThat(configs(catalog)).containsExactly(0x0144L, 0x0244L, 0x0444L, 0x0844L, 0x1044L, 0x4044L);
    }

    @Test
    void zen5TurinIsFamily1a()
    {
        EventCatalog catalog = catalog(CpuIdentity.AMD, 0x1a, 0x02, "AMD EPYC 9755 128-Core Processor");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.AMD_ZEN5);
        assertThat(sources(catalog)).contains(OTHER_CCX_SAME_NODE, OTHER_NODE_CACHE, REMOTE_DRAM);
        assertThat(catalog.remoteFillSources()).hasSize(3);
    }

    @Test
    void zen2RomeUsesDemandRefillsWithoutASameNodeOtherCcxSource()
    {
        EventCatalog catalog = catalog(CpuIdentity.AMD, 0x17, 0x31, "AMD EPYC 7742 64-Core Processor");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.AMD_ZEN2);
        assertThat(configs(catalog)).containsExactly(0x0143L, 0x0243L, 0x0843L, 0x1043L, 0x4043L);
        assertThat(sources(catalog)).doesNotContain(OTHER_CCX_SAME_NODE);
    }

    @Test
    void iceLakeSpUsesOffcoreResponseB7WithResponseBitsInConfig1()
    {
        EventCatalog catalog = catalog(CpuIdentity.INTEL, 6, 0x6a, "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.INTEL_ICELAKE_SP);
        assertThat(sources(catalog)).containsExactly(LOCAL_DRAM, SNC_NEIGHBOUR_DRAM, REMOTE_DRAM);
        assertThat(configs(catalog)).containsOnly(0x01b7L);
        assertThat(catalog.fillSources()).extracting(fill -> fill.event().config1())
                .containsExactly(0x104000001L, 0x708000001L, 0x730000001L);
        // only two offcore response MSRs: the remote signal must fit them
        assertThat(catalog.remoteFillSources()).extracting(FillSourceEvent::source).containsExactly(SNC_NEIGHBOUR_DRAM, REMOTE_DRAM);
    }

    @Test
    void sapphireAndEmeraldRapidsUseOffcoreResponse2a()
    {
        EventCatalog sapphire = catalog(CpuIdentity.INTEL, 6, 0x8f, "Intel(R) Xeon(R) Platinum 8488C");
        assertThat(sapphire.microarchitecture()).contains(Microarchitecture.INTEL_SAPPHIRE_RAPIDS);
        assertThat(configs(sapphire)).containsOnly(0x012aL);
        assertThat(sapphire.fillSources()).extracting(fill -> fill.event().config1()).containsExactly(0x104000001L, 0x708000001L, 0x730000001L);

        EventCatalog emerald = catalog(CpuIdentity.INTEL, 6, 0xcf, "INTEL(R) XEON(R) PLATINUM 8592+");
        assertThat(emerald.microarchitecture()).contains(Microarchitecture.INTEL_EMERALD_RAPIDS);
        assertThat(emerald.fillSources()).isEqualTo(sapphire.fillSources());
    }

    @Test
    void unknownModelHasNoVendorEventsAndSaysWhich()
    {
        EventCatalog catalog = catalog(CpuIdentity.INTEL, 6, 0xad, "Intel(R) Xeon(R) 6980P");
        assertThat(catalog.microarchitecture()).isEmpty();
        assertThat(catalog.fillSources()).isEmpty();
        assertThat(catalog.fillSourcesUnknownReason()).contains(
                "unknown CPU model for fill-source events: GenuineIntel family 0x6 model 0xad (Intel(R) Xeon(R) 6980P)");
        // software and generic hardware events are listed whatever the model
        assertThat(catalog.software()).contains(EventCatalog.TASK_CLOCK, EventCatalog.PAGE_FAULTS, EventCatalog.CPU_MIGRATIONS);
        assertThat(catalog.hardware()).contains(EventCatalog.CYCLES, EventCatalog.LLC_READ_MISSES);
    }

    @Test
    void zen1IsRecognisedButHasNoFillSourceEvents()
    {
        EventCatalog catalog = catalog(CpuIdentity.AMD, 0x17, 0x01, "AMD EPYC 7601 32-Core Processor");
        assertThat(catalog.microarchitecture()).contains(Microarchitecture.AMD_ZEN1);
        assertThat(catalog.fillSourcesUnknownReason().orElseThrow()).endsWith("is AMD Zen 1, which has no per-source fill events");
    }

    @Test
    void realCascadeLakeCpuinfoIsParsedAndUnknown()
    {
        Path fixture = Path.of("src/test/resources/perf/cascadelake-sp");
        EventCatalog catalog = EventCatalog.forMachine(fixture);
        assertThat(catalog.cpu()).hasValueSatisfying(cpu -> {
            assertThat(cpu.vendor()).isEqualTo(CpuIdentity.INTEL);
            assertThat(cpu.family()).isEqualTo(6);
            assertThat(cpu.model()).isEqualTo(0x55);
            assertThat(cpu.modelName()).isEqualTo("Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
        });
        assertThat(catalog.fillSources()).isEmpty();
    }

    @Test
    void vendorEventsUseTheCorePmuTypeFromSysfs()
    {
        new PerfFixture(root).cpu(CpuIdentity.AMD, 0x19, 0x01, "EPYC").pmu("cpu", 11).pmu("software", 1);
        EventCatalog catalog = EventCatalog.forMachine(root);
        assertThat(catalog.fillSources()).allSatisfy(fill -> assertThat(fill.event().type()).isEqualTo(11));
    }

    @Test
    void missingCpuinfoGivesAnUnknownCpuReason()
    {
        EventCatalog catalog = EventCatalog.forMachine(root);
        assertThat(catalog.cpu()).isEmpty();
        assertThat(catalog.fillSourcesUnknownReason()).contains("unknown CPU: proc/cpuinfo names no vendor, family and model");
    }

    @Test
    void malformedCpuinfoNamesTheFileAndField()
    {
        new PerfFixture(root).write("proc/cpuinfo", "vendor_id\t: AuthenticAMD\ncpu family\t: zen\nmodel\t: 1\n");
        assertThatThrownBy(() -> EventCatalog.forMachine(root))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("proc/cpuinfo")
                .hasMessageContaining("'cpu family' should be a decimal number, found 'zen'");
    }

    @Test
    void amdConfigPutsHighEventBitsAt32()
    {
        assertThat(EventCatalog.amdConfig(0x44, 0x10)).isEqualTo(0x1044L);
        assertThat(EventCatalog.amdConfig(0x18e, 0x1f)).isEqualTo(0x1_0000_1f8eL);
    }

    private EventCatalog catalog(String vendor, int family, int model, String name)
    {
        new PerfFixture(root).cpu(vendor, family, model, name);
        return EventCatalog.forMachine(root);
    }

    private static List<FillSource> sources(EventCatalog catalog)
    {
        return catalog.fillSources().stream().map(FillSourceEvent::source).toList();
    }

    private static List<Long> configs(EventCatalog catalog)
    {
        return catalog.fillSources().stream().map(fill -> fill.event().config()).toList();
    }
}
