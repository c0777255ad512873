package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PinnableCpusTrackerTest
{
    @Test
    void reportsEachChangeOnceAndIgnoresEmptyReadings()
    {
        Deque<CpuSet> readings = new ArrayDeque<>(List.of(CpuSet.range(0, 15), CpuSet.range(0, 15), CpuSet.range(8, 15), CpuSet.empty(), CpuSet.range(8, 15)));
        PinnableCpusTracker tracker = new PinnableCpusTracker(readings::poll);
        assertThat(tracker.current()).isEqualTo(CpuSet.range(0, 15));
        assertThat(tracker.check()).isEmpty();
        PinnableCpusTracker.Change change = tracker.check().orElseThrow();
        assertThat(change.describe()).isEqualTo("allowed CPUs changed from 0-15 to 8-15 (8 removed, 0 added)");
        assertThat(tracker.check()).as("a cpuset being rewritten reads empty").isEmpty();
        assertThat(tracker.check()).isEmpty();
        assertThat(tracker.changes()).isEqualTo(1);
        assertThat(tracker.current()).isEqualTo(CpuSet.range(8, 15));
    }

    /** Live: the steady-state check reads what the full read does, and does the full read only once while nothing changes. */
    @Test
    void liveReadingDoesTheFullReadOnlyOnChange()
    {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "needs Linux");
        PinnableCpusTracker.LiveReading reading = new PinnableCpusTracker.LiveReading();
        CpuSet first = reading.get();
        assertThat(first).isEqualTo(PinnableCpusTracker.readLive());
        for (int i = 0; i < 5; i++) {
            assertThat(reading.get()).isEqualTo(first);
        }
        assertThat(reading.fullReads()).isEqualTo(1);
    }

    /** Live: a child JVM's tracker sees {@code taskset -a -p} narrow every thread of it from outside, as a cpuset change does. */
    @Test
    @Timeout(120) // a safety net for a tracker that never reports, not a measurement
    void seesTheProcessNarrowedFromOutside()
            throws Exception
    {
        assumeTrue(PinnableCpus.live().cpus().containsAll(CpuSet.range(0, 1)), "needs CPUs 0 and 1");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), TrackerMain.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String start = out.readLine();
            assertThat(start).startsWith("START ");
            CpuSet before = CpuSet.parseList(start.substring("START ".length()));
            assertThat(before.containsAll(CpuSet.range(0, 1))).isTrue();
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", "1", Long.toString(child.pid())).redirectErrorStream(true).start();
            String tasksetOutput = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(taskset.waitFor(30, TimeUnit.SECONDS) && taskset.exitValue() == 0).as(tasksetOutput).isTrue();
            assertThat(out.readLine()).isEqualTo("CHANGE allowed CPUs changed from " + before.toList() + " to 1 (" + (before.size() - 1) + " removed, 0 added)");
        }
        finally {
            child.destroyForcibly();
        }
    }
}
