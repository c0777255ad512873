package io.chiplet.perf;

import io.chiplet.nativeio.Errno;

import java.util.List;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Decides whether an event can be counted, and why not, from the platform's inputs: the
 * {@code perf_event_paranoid} level and capabilities, the PMUs sysfs lists, the CPU model (for vendor events), and
 * the errno of a probe {@code perf_event_open} when one was made. {@link #decide} is a pure function of these, so
 * every reason is covered with fixtures; {@link #assess} adds the live probe.
 *
 * <p>The checks run from the most fundamental to the most specific, so the reason names what would have to change
 * first: kernel support, then the paranoid level, then the PMU, then the CPU model, then what the kernel said.
 */
public final class CounterAvailability
{
    private CounterAvailability() {}

    /** Opens {@code event} alone on {@code target} and closes it; empty on success, else the errno. */
    @FunctionalInterface
    public interface Probe
    {
        OptionalInt tryOpen(PerfEvent event, CounterScope target);
    }

    /** The live probe: a real {@code perf_event_open}. */
    public static final Probe SYSCALL_PROBE = (event, target) -> {
        try (PerfCounterGroup probe = PerfCounterGroup.open(target, List.of(event), false)) {
            return OptionalInt.empty();
        }
        catch (PerfEventOpenException e) {
            return OptionalInt.of(e.errno());
        }
    };

    /**
     * Decides without opening anything when the inputs settle it, otherwise probes once and decides with the
     * errno.
     */
    public static Availability assess(PerfEvent event, CounterScope target, PerfPlatform platform, Probe probe)
    {
        Availability beforeProbe = decide(event, target.isCpuWide(), platform, OptionalInt.empty());
        if (!beforeProbe.isAvailable()) {
            return beforeProbe;
        }
        if (probe == SYSCALL_PROBE && !PerfEventSyscalls.syscallNumberKnown()) {
            return Availability.unavailable("no perf_event_open syscall number is known for os.arch " + System.getProperty("os.arch"));
        }
        return decide(event, target.isCpuWide(), platform, probe.tryOpen(event, target));
    }

    /** Availability of the vendor fill-source events as a whole: the catalog may know none for this CPU. */
    public static Availability assessFillSources(EventCatalog catalog, CounterScope target, PerfPlatform platform, Probe probe)
    {
        if (catalog.remoteFillSources().isEmpty()) {
            // a missing PMU or a paranoid level is still the more useful answer than the CPU model
            Availability hardware = decide(EventCatalog.CYCLES, target.isCpuWide(), platform, OptionalInt.empty());
            if (!hardware.isAvailable()) {
                return hardware;
            }
            return Availability.unavailable(catalog.fillSourcesUnknownReason().orElseThrow());
        }
        for (FillSourceEvent fill : catalog.remoteFillSources()) {
            Availability availability = assess(fill.event(), target, platform, probe);
            if (!availability.isAvailable()) {
                return availability;
            }
        }
        return Availability.available();
    }

    /**
     * The pure decision.
     *
     * @param cpuWide the event would count a whole CPU rather than threads of this process
     * @param probeErrno the errno of a probe {@code perf_event_open}, empty when none failed or none was made
     */
    public static Availability decide(PerfEvent event, boolean cpuWide, PerfPlatform platform, OptionalInt probeErrno)
    {
        requireNonNull(event, "event is null");
        requireNonNull(platform, "platform is null");
        requireNonNull(probeErrno, "probeErrno is null");
        if (platform.paranoid().isEmpty()) {
            return Availability.unavailable("the kernel has no perf_event support (proc/sys/kernel/perf_event_paranoid is missing; needs CONFIG_PERF_EVENTS)");
        }
        int paranoid = platform.paranoid().getAsInt();
        if (!platform.perfmonCapable()) {
            if (paranoid >= 3) {
                return Availability.unavailable("perf_event_paranoid=" + paranoid
                        + " forbids perf_event_open to unprivileged processes (needs perf_event_paranoid<=2 or CAP_PERFMON)");
            }
            if (cpuWide && paranoid >= 1) {
                return Availability.unavailable("perf_event_paranoid=" + paranoid
                        + " forbids CPU-wide counting (needs perf_event_paranoid<=0 or CAP_PERFMON)");
            }
        }
        if (EventCatalog.KERNEL_MODE_ONLY.contains(event) && !platform.kernelCountingAllowed()) {
            return Availability.unavailable(event.name() + " happens only in kernel mode, and perf_event_paranoid=" + paranoid
                    + " limits unprivileged counters to user mode, where it always reads 0 (needs perf_event_paranoid<=1 or CAP_PERFMON)");
        }
        if (!event.isSoftware() && platform.corePmu().isEmpty()) {
            return Availability.unavailable("no hardware PMU (virtual machine?): sys/bus/event_source/devices has no cpu PMU, only "
                    + (platform.pmus().isEmpty() ? "nothing" : String.join(", ", platform.pmus().keySet().stream().sorted().toList())));
        }
        if (probeErrno.isEmpty()) {
            return Availability.available();
        }
        int errno = probeErrno.getAsInt();
        String allowedBy = platform.perfmonCapable() ? "CAP_PERFMON" : "perf_event_paranoid=" + paranoid;
        return Availability.unavailable(switch (errno) {
            case Errno.ENOSYS -> "perf_event_open returned ENOSYS although " + allowedBy
                    + " allows it (a seccomp filter, e.g. a container runtime's default profile, blocks the syscall)";
            case Errno.EPERM, Errno.EACCES -> "perf_event_open returned " + Errno.name(errno) + " although " + allowedBy
                    + " allows it (a seccomp filter or security module denies it)";
            case Errno.ENOENT, Errno.EOPNOTSUPP, Errno.EINVAL -> "the kernel does not support event " + event.name() + " here: "
                    + Errno.name(errno) + " (" + Errno.describe(errno) + ")";
            case Errno.EMFILE -> "no file descriptor left for the counter: EMFILE (too many open files)";
            case Errno.EBUSY -> "the PMU is in exclusive use by another user: EBUSY";
            default -> "perf_event_open failed: " + Errno.name(errno) + " (" + Errno.describe(errno) + ")";
        });
    }
}
