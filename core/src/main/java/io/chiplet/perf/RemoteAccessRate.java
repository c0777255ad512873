package io.chiplet.perf;

import java.util.List;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Opens the remote-access signal for a thread: hardware fill-by-source counters when this machine allows them,
 * otherwise the software fallback, saying exactly why the hardware path was not taken.
 *
 * <h2>Hardware signal</h2>
 * The sum of the catalog's remote fill sources over the interval: on AMD Zen 3/4/5, fills from another CCX of the
 * same node, from a CCX of another node, and from another node's DRAM; on Zen 2, other-node cache and DRAM; on
 * Intel Ice Lake-SP, Sapphire and Emerald Rapids, L3-missing demand reads served by another SNC domain's or another
 * socket's DRAM. This is the per-worker counter CHARM thresholds (300 events per 500 ms in the paper). It counts
 * user mode only: the worker's own data accesses, at any paranoid level that allows hardware events at all.
 *
 * <h2>Software fallback</h2>
 * Where no PMU is exposed (most VMs, as on the CI machine), {@code perf_event_paranoid} or a seccomp profile forbid
 * it, or the CPU model is not catalogued, the signal is the observed thread's <em>minor page faults</em> per
 * interval, with task-clock, cpu-migrations and context-switches recorded as components. Why minor faults:
 * <ul>
 * <li>They are the first touches of new memory, so their rate is the growth of the thread's working set, the
 * condition under which CHARM spreads a worker (its data no longer fits the local L3) and, once it stops,
 * consolidates it again.</li>
 * <li>First touch decides a page's NUMA node: pages faulted while a thread runs away from its data's home become
 * the remote accesses the hardware signal would count later.</li>
 * <li>They are per-thread software events, countable at {@code perf_event_paranoid = 2} without any PMU, at the
 * same cost as the hardware group. (Fault events are raised with the faulting user context, so they count even
 * where the paranoid level forces {@code exclude_kernel}; migrations and context switches do not.)</li>
 * </ul>
 * It is a proxy, not a measurement of remote accesses: a scan over memory that is already mapped faults nothing.
 * Its unit differs from the hardware signal's, so a controller must use a threshold per {@link SignalSource};
 * every sample carries its source for that reason. cpu-migrations of a pinned thread should stay 0; a non-zero
 * count says the pinning does not hold.
 */
public final class RemoteAccessRate
{
    /** The fallback's signal event and the events recorded alongside it. */
    public static final List<PerfEvent> FALLBACK_EVENTS = List.of(
            EventCatalog.MINOR_FAULTS, EventCatalog.TASK_CLOCK, EventCatalog.CPU_MIGRATIONS, EventCatalog.CONTEXT_SWITCHES);

    private RemoteAccessRate() {}

    /**
     * The signal that was opened, and why the hardware one was not when it was not.
     *
     * @param hardware availability of the hardware signal; the reason when the fallback was chosen
     */
    public record Choice(RemoteAccessSignal signal, Availability hardware)
    {
        public Choice
        {
            requireNonNull(signal, "signal is null");
            requireNonNull(hardware, "hardware is null");
        }
    }

    public static Choice open(CounterScope target, PerfPlatform platform, EventCatalog catalog)
    {
        return open(target, platform, catalog, CounterAvailability.SYSCALL_PROBE, System::nanoTime);
    }

    public static Choice open(CounterScope target, PerfPlatform platform, EventCatalog catalog, CounterAvailability.Probe probe, LongSupplier nanoTime)
    {
        requireNonNull(target, "target is null");
        Availability hardware = CounterAvailability.assessFillSources(catalog, target, platform, probe);
        if (hardware.isAvailable()) {
            List<PerfEvent> events = catalog.remoteFillSources().stream().map(FillSourceEvent::event).toList();
            try {
                return new Choice(hardware(PerfCounterGroup.open(target, events), nanoTime), hardware);
            }
            catch (PerfEventOpenException e) {
                // each event opened alone but not as a group: more remote events than counters
                hardware = Availability.unavailable("the remote fill events do not fit one counter group here: " + e.getMessage());
            }
        }
        return new Choice(softwareFallback(target, platform.kernelCountingAllowed(), nanoTime), hardware);
    }

    static RemoteAccessSignal hardware(PerfCounterGroup group, LongSupplier nanoTime)
    {
        return new CounterGroupSignal(group, SignalSource.HARDWARE, sample -> true, nanoTime);
    }

    /**
     * The software fallback on its own, e.g. to compare it with the hardware signal where both exist.
     *
     * @param countKernel count kernel mode too, without which cpu-migrations and context-switches read 0
     */
    public static RemoteAccessSignal softwareFallback(CounterScope target, boolean countKernel, LongSupplier nanoTime)
    {
        PerfCounterGroup group = PerfCounterGroup.open(target, FALLBACK_EVENTS, countKernel);
        return new CounterGroupSignal(group, SignalSource.SOFTWARE_FALLBACK, EventCatalog.MINOR_FAULTS::equals, nanoTime);
    }
}
