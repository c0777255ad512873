package io.chiplet.spark.placement;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.chiplet.perf.SignalSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementMetricsTest
{
    @Test
    void countsTasksPerChipletAndMeasuresImbalance()
    {
        PlacementMetrics metrics = new PlacementMetrics(2);
        assertThat(metrics.skew()).isNaN();

        metrics.taskStarted(OptionalInt.of(0));
        metrics.taskStarted(OptionalInt.of(0));
        metrics.taskStarted(OptionalInt.of(0));
        metrics.taskStarted(OptionalInt.of(1));
        metrics.taskStarted(OptionalInt.empty());
        // A chiplet the metrics do not know counts as unplaced rather than failing the task hook.
        metrics.taskStarted(OptionalInt.of(7));
        metrics.taskFailed();

        assertThat(metrics.tasks()).isEqualTo(6);
        assertThat(metrics.tasksOn(0)).isEqualTo(3);
        assertThat(metrics.tasksOn(1)).isEqualTo(1);
        assertThat(metrics.unplacedTasks()).isEqualTo(2);
        assertThat(metrics.skew()).isEqualTo(1.5);
        assertThat(metrics.summaryLine()).isEqualTo(
                "chiplet placement: 6 tasks (2 unplaced, 1 failed), per chiplet [0:3 1:1], skew 1.50, spread n/a, remote accesses per interval n/a (signal n/a)");
    }

    @Test
    void publishesLiveGaugesInSparksRegistry()
    {
        PlacementMetrics metrics = new PlacementMetrics(3);
        MetricRegistry registry = new MetricRegistry();
        metrics.register(registry);

        metrics.taskStarted(OptionalInt.of(2));
        metrics.spread(2);
        metrics.remoteAccessRate(120.5);
        metrics.signalSource(SignalSource.SOFTWARE_FALLBACK);

        assertThat(registry.getGauges().keySet()).containsExactlyInAnyOrder(
                "tasks", "tasks.unplaced", "tasks.failed", "tasks.chiplet.0", "tasks.chiplet.1", "tasks.chiplet.2", "spread", "remoteAccessRate", "remoteAccessSignal", "skew", "nativePath", "cpuset.changes");
        assertThat(gauge(registry, "cpuset.changes")).isEqualTo(0L);
        metrics.cpusetChanged();
        assertThat(gauge(registry, "cpuset.changes")).isEqualTo(1L);
        assertThat(gauge(registry, "tasks.chiplet.2")).isEqualTo(1L);
        assertThat(gauge(registry, "tasks")).isEqualTo(1L);
        assertThat(gauge(registry, "spread")).isEqualTo(2);
        assertThat(gauge(registry, "remoteAccessRate")).isEqualTo(120.5);
        assertThat(gauge(registry, "skew")).isEqualTo(3.0);
        assertThat(gauge(registry, "remoteAccessSignal")).isEqualTo("software-fallback");
        assertThat(metrics.summaryLine()).endsWith("spread 2, remote accesses per interval 120.50 (signal software-fallback)");
    }

    @Test
    void countsByTheTopologysChipletIdsEvenWhenSomeWereDropped()
    {
        // A snapshot cut to the live CPUs kept chiplets 1 and 3.
        PlacementMetrics metrics = new PlacementMetrics(List.of(1, 3));
        MetricRegistry registry = new MetricRegistry();
        metrics.register(registry);
        metrics.taskStarted(OptionalInt.of(3));
        metrics.taskStarted(OptionalInt.of(3));
        metrics.taskStarted(OptionalInt.of(1));
        metrics.taskStarted(OptionalInt.of(0));

        assertThat(gauge(registry, "tasks.chiplet.3")).isEqualTo(2L);
        assertThat(gauge(registry, "tasks.chiplet.1")).isEqualTo(1L);
        assertThat(registry.getGauges()).doesNotContainKey("tasks.chiplet.0");
        assertThat(metrics.unplacedTasks()).isEqualTo(1);
        assertThat(metrics.summaryLine()).contains("per chiplet [1:1 3:2]");
    }

    private static Object gauge(MetricRegistry registry, String name)
    {
        Gauge<?> gauge = registry.getGauges().get(name);
        return gauge.getValue();
    }
}
