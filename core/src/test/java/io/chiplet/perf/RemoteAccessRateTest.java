package io.chiplet.perf;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.chiplet.perf.EventCatalog.MINOR_FAULTS;
import static io.chiplet.perf.EventCatalog.TASK_CLOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RemoteAccessRateTest
{
    @Test
    void thisMachineGetsTheSignalItsSysfsImplies()
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        EventCatalog catalog = EventCatalog.select(platform);
        RemoteAccessRate.Choice choice = RemoteAccessRate.open(CounterScope.callingThread(), platform, catalog);
        try (RemoteAccessSignal signal = choice.signal()) {
            if (platform.corePmu().isEmpty()) {
                assertThat(signal.signalSource()).isEqualTo(SignalSource.SOFTWARE_FALLBACK);
                assertThat(choice.hardware().unavailableReason()).hasValueSatisfying(reason -> assertThat(reason).startsWith("no hardware PMU (virtual machine?)"));
            }
            if (signal.signalSource() == SignalSource.SOFTWARE_FALLBACK) {
                assertThat(choice.hardware().isAvailable()).isFalse();
                assertThat(signal.source()).isEqualTo("minor-faults of calling thread");
                PerfCounterGroupTest.touchNewPages(2048);
                RemoteAccessSignal.Sample sample = signal.sample();
                assertThat(sample.source()).isEqualTo(SignalSource.SOFTWARE_FALLBACK);
                assertThat(sample.remoteEvents()).isGreaterThan(1800).isEqualTo(sample.components().get("minor-faults"));
                assertThat(sample.components()).containsOnlyKeys("minor-faults", "task-clock", "cpu-migrations", "context-switches");
            }
            else {
                assertThat(choice.hardware().isAvailable()).isTrue();
                assertThat(signal.sample().source()).isEqualTo(SignalSource.HARDWARE);
            }
        }
    }

    @Test
    void fallbackIsChosenWithTheReasonWhenTheCatalogKnowsNoRemoteEvents()
    {
        PerfPlatform platform = new PerfPlatform(OptionalInt.of(2), Map.of("cpu", 4), java.util.Optional.of(new CpuIdentity(CpuIdentity.INTEL, 6, 0x55, "Xeon")), false);
        RemoteAccessRate.Choice choice = RemoteAccessRate.open(CounterScope.callingThread(), platform, EventCatalog.select(platform),
                (event, target) -> OptionalInt.empty(), System::nanoTime);
        try (RemoteAccessSignal signal = choice.signal()) {
            assertThat(signal.signalSource()).isEqualTo(SignalSource.SOFTWARE_FALLBACK);
            assertThat(choice.hardware()).hasToString("unavailable: unknown CPU model for fill-source events: GenuineIntel family 0x6 model 0x55 (Xeon)");
        }
    }

    @Test
    void samplesAreDeltasOverTheIntervalAndSumOnlyTheSignalEvents()
    {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), List.of(MINOR_FAULTS, TASK_CLOCK));
        try (RemoteAccessSignal signal = RemoteAccessRate.hardware(group, clock::get)) {
            PerfCounterGroupTest.touchNewPages(1024);
            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
            RemoteAccessSignal.Sample first = signal.sample();
            assertThat(first.intervalNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
            // summing every event: the group's counts together
            assertThat(first.remoteEvents()).isEqualTo(first.components().get("minor-faults") + first.components().get("task-clock"));
            assertThat(first.components().get("minor-faults")).isGreaterThan(900);

            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(250));
            RemoteAccessSignal.Sample second = signal.sample();
            assertThat(second.intervalNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
            // nothing new was touched: the delta is small, not the running total
            assertThat(second.components().get("minor-faults")).isLessThan(first.components().get("minor-faults") / 4);
        }
    }

    @Test
    void ratePerNormalisesLikeCharm()
    {
        RemoteAccessSignal.Sample sample = new RemoteAccessSignal.Sample(SignalSource.HARDWARE, TimeUnit.MILLISECONDS.toNanos(250), 150, Map.of());
        // CHARM: rate = counter * SCHEDULER_TIMER / elapsed, with a 500 ms timer
        assertThat(sample.ratePer(TimeUnit.MILLISECONDS.toNanos(500))).isEqualTo(300.0);
        assertThat(sample.perSecond()).isEqualTo(600.0);
        assertThat(new RemoteAccessSignal.Sample(SignalSource.HARDWARE, 0, 5, Map.of()).perSecond()).isZero();
        assertThatThrownBy(() -> new RemoteAccessSignal.Sample(SignalSource.HARDWARE, -1, 0, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
