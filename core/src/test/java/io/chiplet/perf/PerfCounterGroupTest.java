package io.chiplet.perf;

import io.chiplet.nativeio.Errno;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.chiplet.perf.EventCatalog.CONTEXT_SWITCHES;
import static io.chiplet.perf.EventCatalog.PAGE_FAULTS;
import static io.chiplet.perf.EventCatalog.TASK_CLOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Live tests against this kernel's perf_event: software events only, which need no PMU. */
class PerfCounterGroupTest
{
    private static final List<PerfEvent> SOFTWARE = List.of(TASK_CLOCK, CONTEXT_SWITCHES, PAGE_FAULTS);

    @Test
    void taskClockCountsABusyLoop()
    {
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), SOFTWARE)) {
            group.enable();
            long start = System.nanoTime();
            long cpu = spinCpu(TimeUnit.MILLISECONDS.toNanos(100));
            long wall = System.nanoTime() - start;
            group.disable();
            GroupReading reading = group.read();
            // task-clock is the thread's time on a CPU: what the JVM's thread CPU clock measured, never above wall time
            assertThat(reading.scaled(TASK_CLOCK.name()))
                    .isGreaterThan(cpu * 8 / 10)
                    .isLessThanOrEqualTo(wall + TimeUnit.MILLISECONDS.toNanos(5));
            assertThat(reading.timeEnabledNanos()).isGreaterThanOrEqualTo(reading.scaled(TASK_CLOCK.name()));
        }
    }

    @Test
    void sleepingThreadCountsMuchLessTaskClockThanABusyOne()
            throws Exception
    {
        long busy = taskClockOfAnotherThread(() -> spinCpu(TimeUnit.MILLISECONDS.toNanos(100)));
        long sleeping = taskClockOfAnotherThread(() -> sleep(200));
        assertThat(busy).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(80));
        assertThat(sleeping).isLessThan(busy / 10);
    }

    @Test
    void groupReadReturnsEveryMemberInOneRead()
    {
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), SOFTWARE)) {
            group.enable();
            spin(TimeUnit.MILLISECONDS.toNanos(20));
            touchNewPages(1024);
            GroupReading reading = group.read();
            assertThat(reading.size()).isEqualTo(3);
            assertThat(reading.events()).containsExactlyElementsOf(SOFTWARE);
            assertThat(reading.scaled(TASK_CLOCK.name())).isPositive();
            assertThat(reading.scaled(PAGE_FAULTS.name())).isPositive();
            assertThat(reading.multiplexed()).isFalse();
        }
    }

    @Test
    void resetZeroesTheCounts()
    {
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), SOFTWARE)) {
            group.enable();
            spinCpu(TimeUnit.MILLISECONDS.toNanos(50));
            group.disable();
            long before = group.read().scaled(TASK_CLOCK.name());
            group.reset();
            GroupReading after = group.read();
            assertThat(before).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(5));
            assertThat(after.raw(0)).isZero();
            assertThat(after.raw(2)).isZero();
        }
    }

    @Test
    void contextSwitchesCountOnlyWithKernelMode()
            throws Exception
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        List<PerfEvent> events = List.of(TASK_CLOCK, CONTEXT_SWITCHES);
        try (PerfCounterGroup userOnly = PerfCounterGroup.open(CounterScope.callingThread(), events, false)) {
            userOnly.enable();
            for (int i = 0; i < 20; i++) {
                Thread.sleep(1);
            }
            // switches happen in the scheduler, in kernel mode: exclude_kernel filters every one of them
            assertThat(userOnly.read().scaled(CONTEXT_SWITCHES.name())).isZero();
        }
        if (platform.kernelCountingAllowed()) {
            try (PerfCounterGroup withKernel = PerfCounterGroup.open(CounterScope.callingThread(), events, true)) {
                withKernel.enable();
                for (int i = 0; i < 20; i++) {
                    Thread.sleep(1);
                }
                assertThat(withKernel.read().scaled(CONTEXT_SWITCHES.name())).isGreaterThanOrEqualTo(20);
            }
        }
    }

    @Test
    void cpuWideGroupCountsWhereThePlatformAllowsIt()
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        List<PerfEvent> events = List.of(EventCatalog.CPU_CLOCK, PAGE_FAULTS);
        Availability availability = CounterAvailability.assess(EventCatalog.CPU_CLOCK, CounterScope.cpu(0), platform, CounterAvailability.SYSCALL_PROBE);
        if (!platform.perfmonCapable() && platform.paranoid().orElse(3) >= 1) {
            assertThat(availability.unavailableReason()).hasValueSatisfying(reason -> assertThat(reason).contains("forbids CPU-wide counting"));
            return;
        }
        assertThat(availability.isAvailable()).isTrue();
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.cpu(0), events)) {
            group.enable();
            spinCpu(TimeUnit.MILLISECONDS.toNanos(20));
            sleep(50);
            // cpu-clock of a CPU-wide event advances with wall time whatever runs there
            assertThat(group.read().scaled(EventCatalog.CPU_CLOCK.name())).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    @Test
    void disabledGroupDoesNotCount()
    {
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), SOFTWARE)) {
            spin(TimeUnit.MILLISECONDS.toNanos(30));
            assertThat(group.read().raw(0)).isZero();
        }
    }

    @Test
    void closeReleasesEveryDescriptor()
            throws IOException
    {
        long before = openDescriptors();
        List<Integer> fds;
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), SOFTWARE)) {
            fds = group.fileDescriptors();
            assertThat(openDescriptors()).isEqualTo(before + 3);
        }
        assertThat(openDescriptors()).isEqualTo(before);
        for (int fd : fds) {
            assertThat(Files.exists(Path.of("/proc/self/fd/" + fd))).isFalse();
        }
    }

    @Test
    void failingMemberClosesTheMembersAlreadyOpen()
            throws IOException
    {
        PerfEvent bogus = new PerfEvent("bogus-software", PerfEventSyscalls.PERF_TYPE_SOFTWARE, 0xffff, 0, "no such software event");
        long before = openDescriptors();
        assertThatThrownBy(() -> PerfCounterGroup.open(CounterScope.callingThread(), List.of(TASK_CLOCK, PAGE_FAULTS, bogus)))
                .isInstanceOfSatisfying(PerfEventOpenException.class, e -> {
                    assertThat(e.event()).isEqualTo(bogus);
                    assertThat(e.errno()).isIn(Errno.ENOENT, Errno.EINVAL, Errno.EOPNOTSUPP);
                    assertThat(e).hasMessageContaining("bogus-software");
                });
        assertThat(openDescriptors()).isEqualTo(before);
    }

    @Test
    void closedGroupRefusesToRead()
    {
        PerfCounterGroup group = PerfCounterGroup.open(CounterScope.callingThread(), List.of(TASK_CLOCK));
        group.close();
        group.close();
        assertThatThrownBy(group::read).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    private static long taskClockOfAnotherThread(Runnable work)
            throws Exception
    {
        AtomicInteger tid = new AtomicInteger();
        CountDownLatch opened = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            tid.set(TestThreads.currentTid());
            started.countDown();
            await(opened);
            work.run();
        });
        worker.start();
        started.await();
        try (PerfCounterGroup group = PerfCounterGroup.open(CounterScope.thread(tid.get()), List.of(TASK_CLOCK))) {
            group.enable();
            opened.countDown();
            worker.join();
            return group.read().scaled(0);
        }
    }

    private static long openDescriptors()
            throws IOException
    {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** Spins until this thread has used {@code cpuNanos} of CPU time, however contended the machine; returns the CPU time used. */
    static long spinCpu(long cpuNanos)
    {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        long used = 0;
        while (used < cpuNanos) {
            spin(TimeUnit.MILLISECONDS.toNanos(1));
            used = threads.getCurrentThreadCpuTime() - start;
        }
        return used;
    }

    static long spin(long nanos)
    {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        return x;
    }

    /**
     * Writes one byte to each page of a fresh shared file mapping: every page is new to this process, so each
     * write is a minor fault (malloc'd memory may be recycled heap that is already mapped).
     */
    static void touchNewPages(int pages)
    {
        try {
            Path file = Files.createTempFile("chiplet-perf-pages", ".bin");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    Arena arena = Arena.ofConfined()) {
                MemorySegment mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, pages * 4096L, arena);
                for (long offset = 0; offset < mapping.byteSize(); offset += 4096) {
                    mapping.set(ValueLayout.JAVA_BYTE, offset, (byte) 1);
                }
            }
            finally {
                Files.delete(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch)
    {
        try {
            latch.await();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
