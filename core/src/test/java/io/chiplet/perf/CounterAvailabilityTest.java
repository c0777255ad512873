package io.chiplet.perf;

import io.chiplet.nativeio.Errno;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

import static io.chiplet.perf.EventCatalog.CYCLES;
import static io.chiplet.perf.EventCatalog.TASK_CLOCK;
import static org.assertj.core.api.Assertions.assertThat;

class CounterAvailabilityTest
{
    private static final String NO_CAPABILITIES = "0000000000000000";
    private static final String CAP_PERFMON = Long.toHexString(1L << 38);

    @TempDir
    Path root;

    @Test
    void softwareEventsAreAvailableAtParanoid2WithoutAPmu()
    {
        PerfPlatform platform = fixture().paranoid(2).virtualMachinePmus().capEff(NO_CAPABILITIES).platform();
        assertThat(decide(TASK_CLOCK, false, platform)).hasToString("available");
    }

    @Test
    void kernelModeOnlySoftwareEventsNeedKernelCounting()
    {
        PerfPlatform restricted = fixture().paranoid(2).virtualMachinePmus().capEff(NO_CAPABILITIES).platform();
        assertThat(decide(EventCatalog.CONTEXT_SWITCHES, false, restricted)).hasToString(
                "unavailable: context-switches happens only in kernel mode, and perf_event_paranoid=2 limits unprivileged counters to user mode,"
                        + " where it always reads 0 (needs perf_event_paranoid<=1 or CAP_PERFMON)");
        assertThat(decide(EventCatalog.PAGE_FAULTS, false, restricted).isAvailable()).isTrue();
        PerfPlatform relaxed = fixture().paranoid(1).platform();
        assertThat(decide(EventCatalog.CPU_MIGRATIONS, false, relaxed).isAvailable()).isTrue();
    }

    @Test
    void paranoid3ForbidsEverythingToUnprivilegedProcesses()
    {
        PerfPlatform platform = fixture().paranoid(3).pmu("cpu", 4).capEff(NO_CAPABILITIES).platform();
        assertThat(decide(TASK_CLOCK, false, platform)).hasToString(
                "unavailable: perf_event_paranoid=3 forbids perf_event_open to unprivileged processes (needs perf_event_paranoid<=2 or CAP_PERFMON)");
    }

    @Test
    void paranoid1ForbidsCpuWideCounting()
    {
        PerfPlatform platform = fixture().paranoid(1).pmu("cpu", 4).capEff(NO_CAPABILITIES).platform();
        assertThat(decide(CYCLES, true, platform)).hasToString(
                "unavailable: perf_event_paranoid=1 forbids CPU-wide counting (needs perf_event_paranoid<=0 or CAP_PERFMON)");
        assertThat(decide(CYCLES, false, platform).isAvailable()).isTrue();
    }

    @Test
    void capPerfmonLiftsTheParanoidLevel()
    {
        PerfPlatform platform = fixture().paranoid(3).pmu("cpu", 4).capEff(CAP_PERFMON).platform();
        assertThat(platform.perfmonCapable()).isTrue();
        assertThat(decide(CYCLES, true, platform).isAvailable()).isTrue();
    }

    @Test
    void noCorePmuMeansAVirtualMachine()
    {
        PerfPlatform platform = fixture().paranoid(2).virtualMachinePmus().capEff(NO_CAPABILITIES).platform();
        assertThat(decide(CYCLES, false, platform)).hasToString(
                "unavailable: no hardware PMU (virtual machine?): sys/bus/event_source/devices has no cpu PMU, only breakpoint, msr, software, tracepoint, uprobe");
    }

    @Test
    void hybridIntelCorePmuCounts()
    {
        PerfPlatform platform = fixture().paranoid(2).pmu("cpu_core", 4).pmu("cpu_atom", 10).capEff(NO_CAPABILITIES).platform();
        assertThat(platform.corePmu()).contains(Map.entry("cpu_core", 4));
        assertThat(decide(CYCLES, false, platform).isAvailable()).isTrue();
    }

    @Test
    void enosysWhileParanoidAllowsItIsSeccomp()
    {
        PerfPlatform platform = fixture().paranoid(2).pmu("cpu", 4).capEff(NO_CAPABILITIES).platform();
        assertThat(CounterAvailability.decide(TASK_CLOCK, false, platform, OptionalInt.of(Errno.ENOSYS))).hasToString(
                "unavailable: perf_event_open returned ENOSYS although perf_event_paranoid=2 allows it"
                        + " (a seccomp filter, e.g. a container runtime's default profile, blocks the syscall)");
        assertThat(CounterAvailability.decide(TASK_CLOCK, false, platform, OptionalInt.of(Errno.EPERM))).hasToString(
                "unavailable: perf_event_open returned EPERM although perf_event_paranoid=2 allows it (a seccomp filter or security module denies it)");
    }

    @Test
    void kernelWithoutPerfEvents()
    {
        PerfPlatform platform = fixture().pmu("cpu", 4).platform();
        assertThat(decide(TASK_CLOCK, false, platform)).hasToString(
                "unavailable: the kernel has no perf_event support (proc/sys/kernel/perf_event_paranoid is missing; needs CONFIG_PERF_EVENTS)");
    }

    @Test
    void unsupportedEventNamesTheEventAndErrno()
    {
        PerfPlatform platform = fixture().paranoid(2).pmu("cpu", 4).platform();
        assertThat(CounterAvailability.decide(CYCLES, false, platform, OptionalInt.of(Errno.ENOENT))).hasToString(
                "unavailable: the kernel does not support event cycles here: ENOENT (no such file or directory)");
    }

    @Test
    void assessDoesNotProbeWhenTheInputsAlreadyDecide()
    {
        PerfPlatform platform = fixture().paranoid(2).virtualMachinePmus().platform();
        AtomicInteger probes = new AtomicInteger();
        Availability availability = CounterAvailability.assess(CYCLES, CounterScope.callingThread(), platform, (event, target) -> {
            probes.incrementAndGet();
            return OptionalInt.empty();
        });
        assertThat(availability.isAvailable()).isFalse();
        assertThat(probes).hasValue(0);
    }

    @Test
    void fillSourcesOnUnknownModelWithAPmuReportTheModel()
    {
        fixture().paranoid(0).pmu("cpu", 4).cpu(CpuIdentity.INTEL, 6, 0x55, "Xeon Gold 6230");
        PerfPlatform platform = PerfPlatform.read(root);
        EventCatalog catalog = EventCatalog.select(platform);
        assertThat(CounterAvailability.assessFillSources(catalog, CounterScope.callingThread(), platform, (event, target) -> OptionalInt.empty()))
                .hasToString("unavailable: unknown CPU model for fill-source events: GenuineIntel family 0x6 model 0x55 (Xeon Gold 6230)");
    }

    @Test
    void fillSourcesOnAKnownModelInAVmReportTheMissingPmuFirst()
    {
        fixture().paranoid(2).virtualMachinePmus().cpu(CpuIdentity.AMD, 0x19, 0x01, "AMD EPYC 7763");
        PerfPlatform platform = PerfPlatform.read(root);
        EventCatalog catalog = EventCatalog.select(platform);
        assertThat(CounterAvailability.assessFillSources(catalog, CounterScope.callingThread(), platform, (event, target) -> OptionalInt.empty())
                .unavailableReason().orElseThrow()).startsWith("no hardware PMU (virtual machine?)");
    }

    @Test
    void fillSourcesProbeEachRemoteEvent()
    {
        fixture().paranoid(2).pmu("cpu", 4).cpu(CpuIdentity.AMD, 0x19, 0x01, "AMD EPYC 7763");
        PerfPlatform platform = PerfPlatform.read(root);
        EventCatalog catalog = EventCatalog.select(platform);
        Availability availability = CounterAvailability.assessFillSources(catalog, CounterScope.callingThread(), platform,
                (event, target) -> event.name().endsWith("mem_io_remote") ? OptionalInt.of(Errno.ENOENT) : OptionalInt.empty());
        assertThat(availability).hasToString(
                "unavailable: the kernel does not support event ls_any_fills_from_sys.mem_io_remote here: ENOENT (no such file or directory)");
    }

    /** The live machine: whatever its sysfs says, the hardware reason must agree with it. */
    @Test
    void liveHardwarePathReportsTheReasonThisMachineImplies()
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        Availability cycles = CounterAvailability.assess(CYCLES, CounterScope.callingThread(), platform, CounterAvailability.SYSCALL_PROBE);
        Availability software = CounterAvailability.assess(TASK_CLOCK, CounterScope.callingThread(), platform, CounterAvailability.SYSCALL_PROBE);
        if (platform.paranoid().isPresent() && (platform.perfmonCapable() || platform.paranoid().getAsInt() <= 2)) {
            assertThat(software).hasToString("available");
        }
        if (platform.corePmu().isEmpty()) {
            assertThat(cycles.unavailableReason()).hasValueSatisfying(reason -> assertThat(reason).startsWith("no hardware PMU (virtual machine?)"));
        }
        else {
            // with a PMU, either it counts or the reason is a paranoid level or what the kernel answered
            assertThat(cycles.isAvailable() || cycles.unavailableReason().orElseThrow().matches("(perf_event_paranoid|perf_event_open|the kernel).*")).isTrue();
        }
    }

    private PerfFixture fixture()
    {
        return new PerfFixture(root);
    }

    private static Availability decide(PerfEvent event, boolean cpuWide, PerfPlatform platform)
    {
        return CounterAvailability.decide(event, cpuWide, platform, OptionalInt.empty());
    }
}
