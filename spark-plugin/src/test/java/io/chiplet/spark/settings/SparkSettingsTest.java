package io.chiplet.spark.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementMode;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class SparkSettingsTest
{
    @Test
    void defaults()
    {
        PlacementSettings settings = SparkSettings.defaults();
        assertThat(settings.enabled()).isTrue();
        assertThat(settings.policy()).isEqualTo(Policy.AUTO);
        assertThat(settings.mode()).isEqualTo(PlacementMode.TASK);
        assertThat(settings.fsRoot()).isEmpty();
        assertThat(settings.adaptiveInterval().toMillis()).isEqualTo(500);
        assertThat(settings.remoteAccessThreshold()).isEqualTo(300);
        assertThat(settings.partitionsResize()).isTrue();
        assertThat(settings.memoryBind()).isTrue();
        assertThat(settings.memoryKind()).isEqualTo(MemoryKind.DRAM);
        assertThat(settings.virtualChipletCores()).isZero();
        assertThat(settings.leaseDirectory()).isEqualTo(Path.of("/tmp/chiplet-leases"));
        assertThat(settings.pinningBackend()).isEqualTo(PinningBackend.Kind.FFM);
    }

    @Test
    void readsEverySettingAndIgnoresOtherSparkEntries()
    {
        SparkSettings.Parsed parsed = SparkSettings.parse(Map.ofEntries(
                Map.entry("spark.master", "local[2]"),
                Map.entry("spark.chiplet.enabled", "FALSE"),
                Map.entry("spark.chiplet.policy", "WICP-Mixed"),
                Map.entry("spark.chiplet.mode", "executor"),
                Map.entry("spark.chiplet.fsRoot", "/snapshots/epyc"),
                Map.entry("spark.chiplet.adaptive.intervalMs", "250"),
                Map.entry("spark.chiplet.adaptive.remoteAccessThreshold", "0"),
                Map.entry("spark.chiplet.partitions.resize", "false"),
                Map.entry("spark.chiplet.memory.bind", "false"),
                Map.entry("spark.chiplet.memory.kind", "cxl-pmem"),
                Map.entry("spark.chiplet.virtualChipletCores", " 4 "),
                Map.entry("spark.chiplet.leaseDir", "/run/chiplet"),
                Map.entry("spark.chiplet.pinning.backend", "openhft")));

        assertThat(parsed).isEqualTo(new SparkSettings.Valid(new PlacementSettings(
                false, Policy.WICP_MIXED, PlacementMode.EXECUTOR, Optional.of(Path.of("/snapshots/epyc")), Duration.ofMillis(250), 0, false, false, MemoryKind.CXL_PMEM, 4,
                Path.of("/run/chiplet"), PinningBackend.Kind.OPENHFT,
                // Trino's settings, which Spark gives no key: core's defaults.
                OptionalInt.empty(), Duration.ofSeconds(1))));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "spark.chiplet.policy; fastest; one of wim, win, wicp-local, wicp-mixed, wic, auto, adaptive",
            "spark.chiplet.mode; stage; task, executor or auto",
            "spark.chiplet.enabled; yes; true or false",
            "spark.chiplet.adaptive.intervalMs; -5; a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms",
            "spark.chiplet.adaptive.intervalMs; 0; a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms",
            "spark.chiplet.adaptive.intervalMs; 9; a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms",
            "spark.chiplet.adaptive.intervalMs; 1.5; a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms",
            "spark.chiplet.adaptive.remoteAccessThreshold; -1; a number of remote-access events per adaptive interval, 0 (any) or more",
            "spark.chiplet.virtualChipletCores; many; a whole number of cores, 0 (real chiplets) or more",
            "spark.chiplet.virtualChipletCores; 99999999999; a whole number of cores, 0 (real chiplets) or more",
            "spark.chiplet.pinning.backend; jni; ffm or openhft",
            "spark.chiplet.memory.bind; 1; true or false",
            "spark.chiplet.memory.kind; gpu; dram, hbm or cxl-pmem",
    })
    void badValueNamesSettingValueAndExpectation(String key, String value, String expected)
    {
        SparkSettings.Parsed parsed = SparkSettings.parse(Map.of(key, value));

        assertThat(parsed).isEqualTo(new SparkSettings.Problem(key, value, expected));
        assertThat(((SparkSettings.Problem) parsed).message()).isEqualTo("%s = '%s' is not usable: expected %s".formatted(key, value, expected));
    }

    @Test
    void misspeltSettingIsAProblemRatherThanSilentlyIgnored()
    {
        SparkSettings.Parsed parsed = SparkSettings.parse(Map.of("spark.chiplet.polcy", "wic"));

        assertThat(parsed).isInstanceOf(SparkSettings.Problem.class);
        SparkSettings.Problem problem = (SparkSettings.Problem) parsed;
        assertThat(problem.key()).isEqualTo("spark.chiplet.polcy");
        assertThat(problem.expected()).startsWith("one of the settings ").contains(SparkSettings.POLICY);
    }

    @Test
    void fsRootMustHoldASysfsSnapshot(@TempDir Path directory)
            throws IOException
    {
        PlacementSettings missing = settingsWithFsRoot(directory.resolve("absent"));
        assertThat(SparkSettings.checkFsRoot(missing)).hasValueSatisfying(problem -> {
            assertThat(problem.key()).isEqualTo(SparkSettings.FS_ROOT);
            assertThat(problem.value()).isEqualTo(directory.resolve("absent").toString());
        });

        PlacementSettings empty = settingsWithFsRoot(directory);
        assertThat(SparkSettings.checkFsRoot(empty)).hasValueSatisfying(problem -> assertThat(problem.expected()).contains("sys/devices/system/cpu is missing"));

        Files.createDirectories(directory.resolve("sys/devices/system/cpu"));
        assertThat(SparkSettings.checkFsRoot(empty)).isEmpty();
        assertThat(SparkSettings.checkFsRoot(SparkSettings.defaults())).isEmpty();
    }

    private static PlacementSettings settingsWithFsRoot(Path root)
    {
        return ((SparkSettings.Valid) SparkSettings.parse(Map.of(SparkSettings.FS_ROOT, root.toString()))).settings();
    }

    @Test
    void aMachinesOwnSnapshotRootComesFromTheEnvironmentUnlessTheApplicationSetsOne()
    {
        assertThat(SparkSettings.withHostFsRoot(java.util.Map.of(), java.util.Map.of(SparkSettings.FS_ROOT_ENVIRONMENT, "/snapshots/epyc")))
                .containsEntry(SparkSettings.FS_ROOT, "/snapshots/epyc");
        assertThat(SparkSettings.withHostFsRoot(java.util.Map.of(SparkSettings.FS_ROOT, "/app"), java.util.Map.of(SparkSettings.FS_ROOT_ENVIRONMENT, "/snapshots/epyc")))
                .containsEntry(SparkSettings.FS_ROOT, "/app");
        assertThat(SparkSettings.withHostFsRoot(java.util.Map.of(), java.util.Map.of(SparkSettings.FS_ROOT_ENVIRONMENT, " "))).doesNotContainKey(SparkSettings.FS_ROOT);
    }
}
