package io.chiplet.placement;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrinoSessionSettingsTest
{
    @Test
    void workersSharingAHostShareItsCores()
    {
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(2, 1))).value()).isEqualTo("2");
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(2, 2))).value()).isEqualTo("1");
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(48, 2))).value()).isEqualTo("16");
    }

    @Test
    void differingWorkersGetTheSmallestWorkersFigure()
    {
        Advice.Setting mixed = TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(64, 1), new TrinoSessionSettings.WorkerHost(8, 1)));
        assertThat(mixed.value()).isEqualTo("8");
        assertThat(mixed.reason()).contains("smallest of the differing workers");
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(8, 1), new TrinoSessionSettings.WorkerHost(8, 1))).reason())
                .doesNotContain("differing");
    }

    @Test
    void noWorkerIsNoFigure()
    {
        assertThatThrownBy(() -> TrinoSessionSettings.taskConcurrency(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TrinoSessionSettings.WorkerHost(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
