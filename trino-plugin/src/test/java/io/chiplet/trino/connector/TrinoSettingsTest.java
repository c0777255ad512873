package io.chiplet.trino.connector;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementMode;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.topology.MemoryKind;
import io.chiplet.trino.measure.MeasureKeys;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class TrinoSettingsTest
{
    @Test
    void defaultsAreTheDocumentedOnes()
    {
        PlacementSettings config = TrinoSettings.defaults();
        assertThat(config.enabled()).isTrue();
        assertThat(config.policy()).isEqualTo(Policy.AUTO);
        assertThat(config.fsRoot()).isEmpty();
        assertThat(config.adaptiveInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.remoteAccessThreshold()).isEqualTo(300);
        assertThat(config.memoryBind()).isTrue();
        assertThat(config.memoryKind()).isEqualTo(MemoryKind.DRAM);
        assertThat(config.virtualChipletCores()).isZero();
        assertThat(config.leaseDirectory()).isEqualTo(Path.of("/tmp/chiplet-leases"));
        assertThat(config.chipletsPerNode()).isEmpty();
        assertThat(config.rescanInterval()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void readsEverySetting()
    {
        TrinoSettings.Parsed parsed = TrinoSettings.parse(Map.ofEntries(
                Map.entry("connector.name", "chiplet"),
                Map.entry(TrinoSettings.ENABLED, "false"),
                Map.entry(TrinoSettings.POLICY, "WICP_LOCAL"),
                Map.entry(TrinoSettings.FS_ROOT, "/snapshots/epyc"),
                Map.entry(TrinoSettings.ADAPTIVE_INTERVAL, "2s"),
                Map.entry(TrinoSettings.REMOTE_ACCESS_THRESHOLD, "120.5"),
                Map.entry(TrinoSettings.MEMORY_BIND, "false"),
                Map.entry(TrinoSettings.MEMORY_KIND, "HBM"),
                Map.entry(TrinoSettings.VIRTUAL_CHIPLET_CORES, "4"),
                Map.entry(TrinoSettings.LEASE_DIR, "/run/chiplet"),
                Map.entry(TrinoSettings.CHIPLETS_PER_NODE, "2"),
                Map.entry(TrinoSettings.RESCAN_INTERVAL, " 250 ")));
        assertThat(parsed).isEqualTo(new TrinoSettings.Valid(new PlacementSettings(false, Policy.WICP_LOCAL, /* Spark's, which Trino gives no key: core's default */ PlacementMode.TASK, Optional.of(Path.of("/snapshots/epyc")),
                Duration.ofSeconds(2), 120.5, true, false, MemoryKind.HBM, 4, Path.of("/run/chiplet"), PinningBackend.Kind.FFM, OptionalInt.of(2),
                Duration.ofMillis(250))));
    }

    @Test
    void durationsTakeUnits()
    {
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("750ms")).isEqualTo(Duration.ofMillis(750));
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("3s")).isEqualTo(Duration.ofSeconds(3));
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("40")).isEqualTo(Duration.ofMillis(40));
    }

    @Test
    void badValuesNameThePropertyAndWhatWasExpected()
    {
        assertProblem(TrinoSettings.POLICY, "fastest", "chiplet.policy=fastest is not usable: expected one of wim, win, wicp-local, wicp-mixed, wic, auto, adaptive");
        assertProblem(TrinoSettings.ENABLED, "yes", "chiplet.enabled=yes is not usable: expected true or false");
        assertProblem(TrinoSettings.ADAPTIVE_INTERVAL, "5ms", "chiplet.adaptive.interval=5ms is not usable: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms");
        assertProblem(TrinoSettings.RESCAN_INTERVAL, "soon", "chiplet.rescan-interval=soon is not usable: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms");
        assertProblem(TrinoSettings.REMOTE_ACCESS_THRESHOLD, "-1", "chiplet.adaptive.remote-access-threshold=-1 is not usable: expected a number of remote-access events per adaptive interval, 0 (any) or more");
        assertProblem(TrinoSettings.VIRTUAL_CHIPLET_CORES, "-2", "chiplet.virtual-chiplet-cores=-2 is not usable: expected a whole number of cores, 0 (real chiplets) or more");
        assertProblem(TrinoSettings.CHIPLETS_PER_NODE, "0", "chiplet.chiplets-per-node=0 is not usable: expected all, or a whole number of chiplets, at least 1");
        assertProblem(TrinoSettings.FS_ROOT, "", "chiplet.fs-root= is not usable: expected a file system path");
        assertProblem(TrinoSettings.MEMORY_KIND, "gpu", "chiplet.memory.kind=gpu is not usable: expected dram, hbm or cxl-pmem");
    }

    @Test
    void unknownPropertyIsAProblemNotADefault()
    {
        assertThat(TrinoSettings.parse(Map.of("chiplet.polcy", "wic")))
                .isEqualTo(new TrinoSettings.Problem("chiplet.polcy", "wic", "one of the properties " + String.join(", ", TrinoSettings.PROPERTIES) + ", "
                        + String.join(", ", io.chiplet.trino.measure.MeasureKeys.PROPERTIES)));
    }

    private static void assertProblem(String property, String value, String message)
    {
        TrinoSettings.Parsed parsed = TrinoSettings.parse(Map.of(property, value));
        assertThat(parsed).isInstanceOf(TrinoSettings.Problem.class);
        assertThat(((TrinoSettings.Problem) parsed).message()).isEqualTo(message);
    }
}
