package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;
import io.chiplet.measure.UnitObservation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OpenWindowsTest
{
    private static final long WINDOW = 1000;
    private static final long COMPLETE = QueryMeasurements.MARGIN_MILLIS + QueryMeasurements.COMPLETE_AFTER_MILLIS;

    private final WindowSchedule schedule = WindowSchedule.starting(0, 42, WINDOW, new Directive(0.5, true), 0);
    private final OpenWindows windows = new OpenWindows();
    private final List<UnitObservation> recorded = new ArrayList<>();

    private static CompletedQuery query(double cpuSeconds, long bytes, long rows)
    {
        return new CompletedQuery("q", "a", "SELECT a", 0, 1, Math.round(cpuSeconds * 1e9), bytes, rows, false);
    }

    @Test
    void aWindowsQueriesOfOneStratumAreOneObservationOnceTheWindowIsComplete()
    {
        windows.add("a, 1 in 2", 5, Arm.PLACED, query(1, 1000, 10));
        windows.add("a, 1 in 2", 5, Arm.PLACED, query(2, 3000, 30));
        windows.add("b, 1 in 2", 5, Arm.PLACED, query(0.5, 100, 1));
        windows.add("a, 1 in 2", 6, Arm.CONTROL, query(4, 1000, 10));
        assertThat(windows.queriesOpen()).isEqualTo(4);

        windows.recordComplete(schedule, 6 * WINDOW + COMPLETE - 1, recorded::add);
        assertThat(recorded).as("window 5 ended less than the margin and the wait ago").isEmpty();
        assertThat(windows.complete(5)).isFalse();

        windows.recordComplete(schedule, 6 * WINDOW + COMPLETE, recorded::add);
        assertThat(recorded).containsExactly(
                new UnitObservation("a, 1 in 2", Arm.PLACED, 3, 3, 0, 4000, 40, "window 5"),
                new UnitObservation("b, 1 in 2", Arm.PLACED, 0.5, 0.5, 0, 100, 1, "window 5"));
        assertThat(windows.complete(5)).as("a query of it now is late").isTrue();
        assertThat(windows.complete(6)).isFalse();
        assertThat(windows.recorded()).isEqualTo(2);
        assertThat(windows.queriesOpen()).isEqualTo(1);

        windows.recordComplete(schedule, 6 * WINDOW + COMPLETE - 1, recorded::add);
        assertThat(recorded).as("an earlier time completes nothing more").hasSize(2);
    }

    @Test
    void atTheEndEveryOpenWindowIsRecorded()
    {
        windows.add("a, 1 in 2", 1_000_000, Arm.CONTROL, query(1, 10, 1));
        windows.recordComplete(schedule, Long.MAX_VALUE, recorded::add);
        assertThat(recorded).extracting(UnitObservation::cluster).containsExactly(OpenWindows.windowCluster(1_000_000));
        assertThat(windows.complete(Long.MAX_VALUE - 1)).isTrue();
        assertThat(windows.queriesOpen()).isZero();
    }
}
