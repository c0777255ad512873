package io.chiplet.trino.connector;

import io.chiplet.placement.Policy;
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

class ChipletConfigTest
{
    @Test
    void defaultsAreTheDocumentedOnes()
    {
        ChipletConfig config = ChipletConfig.defaults();
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
        ChipletConfig.Parsed parsed = ChipletConfig.parse(Map.ofEntries(
                Map.entry("connector.name", "chiplet"),
                Map.entry(ChipletConfig.ENABLED, "false"),
                Map.entry(ChipletConfig.POLICY, "WICP_LOCAL"),
                Map.entry(ChipletConfig.FS_ROOT, "/snapshots/epyc"),
                Map.entry(ChipletConfig.ADAPTIVE_INTERVAL, "2s"),
                Map.entry(ChipletConfig.REMOTE_ACCESS_THRESHOLD, "120.5"),
                Map.entry(ChipletConfig.MEMORY_BIND, "false"),
                Map.entry(ChipletConfig.MEMORY_KIND, "HBM"),
                Map.entry(ChipletConfig.VIRTUAL_CHIPLET_CORES, "4"),
                Map.entry(ChipletConfig.LEASE_DIR, "/run/chiplet"),
                Map.entry(ChipletConfig.CHIPLETS_PER_NODE, "2"),
                Map.entry(ChipletConfig.RESCAN_INTERVAL, " 250 ")));
        assertThat(parsed).isEqualTo(new ChipletConfig.Valid(new ChipletConfig(false, Policy.WICP_LOCAL, Optional.of(Path.of("/snapshots/epyc")),
                Duration.ofSeconds(2), 120.5, false, MemoryKind.HBM, 4, Path.of("/run/chiplet"), OptionalInt.of(2), Duration.ofMillis(250))));
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
        assertProblem(ChipletConfig.POLICY, "fastest", "chiplet.policy=fastest is not usable: expected one of wim, win, wicp-local, wicp-mixed, wic, auto, adaptive");
        assertProblem(ChipletConfig.ENABLED, "yes", "chiplet.enabled=yes is not usable: expected true or false");
        assertProblem(ChipletConfig.ADAPTIVE_INTERVAL, "5ms", "chiplet.adaptive.interval=5ms is not usable: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms");
        assertProblem(ChipletConfig.RESCAN_INTERVAL, "soon", "chiplet.rescan-interval=soon is not usable: expected a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms");
        assertProblem(ChipletConfig.REMOTE_ACCESS_THRESHOLD, "-1", "chiplet.adaptive.remote-access-threshold=-1 is not usable: expected a number of remote-access events per adaptive interval, 0 (any) or more");
        assertProblem(ChipletConfig.VIRTUAL_CHIPLET_CORES, "-2", "chiplet.virtual-chiplet-cores=-2 is not usable: expected a whole number of cores, 0 (real chiplets) or more");
        assertProblem(ChipletConfig.CHIPLETS_PER_NODE, "0", "chiplet.chiplets-per-node=0 is not usable: expected all, or a whole number of chiplets, at least 1");
        assertProblem(ChipletConfig.FS_ROOT, "", "chiplet.fs-root= is not usable: expected a file system path");
        assertProblem(ChipletConfig.MEMORY_KIND, "gpu", "chiplet.memory.kind=gpu is not usable: expected dram, hbm or cxl-pmem");
    }

    @Test
    void unknownPropertyIsAProblemNotADefault()
    {
        assertThat(ChipletConfig.parse(Map.of("chiplet.polcy", "wic")))
                .isEqualTo(new ChipletConfig.Problem("chiplet.polcy", "wic", "one of the properties " + String.join(", ", ChipletConfig.PROPERTIES) + ", "
                        + String.join(", ", io.chiplet.trino.measure.MeasureKeys.PROPERTIES)));
    }

    private static void assertProblem(String property, String value, String message)
    {
        ChipletConfig.Parsed parsed = ChipletConfig.parse(Map.of(property, value));
        assertThat(parsed).isInstanceOf(ChipletConfig.Problem.class);
        assertThat(((ChipletConfig.Problem) parsed).message()).isEqualTo(message);
    }
}
