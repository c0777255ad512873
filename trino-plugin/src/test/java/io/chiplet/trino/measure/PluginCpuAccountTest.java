package io.chiplet.trino.measure;

import io.chiplet.measure.PluginCost;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PluginCpuAccountTest
{
    private static final long MS = 1_000_000;

    @Test
    void theCostAddsTheThreadsTheWorkersTheHooksAndOwnStatementsAgainstTheQueriesCpu()
    {
        PluginCpuAccount account = new PluginCpuAccount(() -> 5 * MS);
        account.countHook(2 * MS);
        account.countHook(0);
        account.countHook(-MS);
        account.countOwnStatement(3 * MS);
        account.countOwnStatement(-MS);
        account.workersReported(Map.of("worker-1", MS, "worker-2", 4 * MS));
        account.workersReported(Map.of("worker-1", 2 * MS));
        account.countQuery(1000 * MS);
        account.countQuery(1000 * MS);

        assertThat(account.cost()).isEqualTo(new PluginCost(16 * MS, 2000 * MS));
        assertThat(account.queries()).isEqualTo(2);
        assertThat(account.note())
                .contains("plugin CPU 16 ms")
                .contains("chiplet-* threads 5 ms")
                .contains("2 workers reported) 6 ms")
                .contains("calls 2 ms")
                .contains("own statements (worker reports, schedule publishing) 3 ms")
                .contains("against 2000 ms of CPU of the 2 other queries completed");
    }

    @Test
    void beforeAnyQueryTheShareIsUnknown()
    {
        PluginCpuAccount account = new PluginCpuAccount(() -> MS);
        assertThat(account.cost().share()).isEmpty();
        account.countQuery(100 * MS);
        assertThat(account.cost().share()).hasValue(0.01);
    }
}
