package io.chiplet.jmh;

import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.GroupReading;
import io.chiplet.perf.PerfCounterGroup;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of reading counters on the sampling path: one {@code read} of a perf group of software events (what a
 * CHARM worker pays every timer tick), the same for a single event, a full remote-access signal sample, and the
 * JVM's own thread CPU clock as the reference a Java developer would otherwise reach for.
 *
 * <p>Groups are opened per benchmark thread ({@link Scope#Thread}) on that thread, as a worker would.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Thread)
public class CounterBenchmark
{
    private PerfCounterGroup group;
    private PerfCounterGroup single;
    private RemoteAccessSignal signal;
    private ThreadMXBean threads;

    @Setup(Level.Trial)
    public void setUp()
    {
        group = PerfCounterGroup.open(CounterScope.callingThread(), List.of(EventCatalog.TASK_CLOCK, EventCatalog.PAGE_FAULTS, EventCatalog.MINOR_FAULTS));
        group.enable();
        single = PerfCounterGroup.open(CounterScope.callingThread(), List.of(EventCatalog.TASK_CLOCK));
        single.enable();
        signal = RemoteAccessRate.softwareFallback(CounterScope.callingThread(), false, System::nanoTime);
        threads = ManagementFactory.getThreadMXBean();
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        group.close();
        single.close();
        signal.close();
    }

    /** One read(2) returning three software counts with enabled/running times. */
    @Benchmark
    public GroupReading groupReadThreeSoftwareEvents()
    {
        return group.read();
    }

    @Benchmark
    public GroupReading groupReadOneEvent()
    {
        return single.read();
    }

    /** A whole signal sample: group read, deltas, the interval clock and the sample record. */
    @Benchmark
    public RemoteAccessSignal.Sample remoteAccessSignalSample()
    {
        return signal.sample();
    }

    /** Reference: the JVM's per-thread CPU clock (clock_gettime on the thread's CPU-time clock). */
    @Benchmark
    public long threadCpuTimeReference()
    {
        return threads.getCurrentThreadCpuTime();
    }
}
