package io.chiplet.spark.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementMode;
import io.chiplet.topology.MemoryKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletSettingsTest
{
    @Test
    void defaults()
    {
        ChipletSettings settings = ChipletSettings.defaults();
        assertThat(settings.enabled()).isTrue();
        assertThat(settings.policy()).isEqualTo(Policy.AUTO);
        assertThat(settings.mode()).isEqualTo(PlacementMode.TASK);
        assertThat(settings.fsRoot()).isEmpty();
        assertThat(settings.adaptiveIntervalMs()).isEqualTo(500);
        assertThat(settings.remoteAccessThreshold()).isEqualTo(300);
        assertThat(settings.resizePartitions()).isTrue();
        assertThat(settings.bindMemory()).isTrue();
        assertThat(settings.memoryKind()).isEqualTo(MemoryKind.DRAM);
        assertThat(settings.virtualChipletCores()).isZero();
        assertThat(settings.leaseDir()).isEqualTo(Path.of("/tmp/chiplet-leases"));
        assertThat(settings.pinningBackend()).isEqualTo(PinningBackend.Kind.FFM);
    }

    @Test
    void readsEverySettingAndIgnoresOtherSparkEntries()
    {
        ChipletSettings.Parsed parsed = ChipletSettings.parse(Map.ofEntries(
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

        assertThat(parsed).isEqualTo(new ChipletSettings.Valid(new ChipletSettings(
                false, Policy.WICP_MIXED, PlacementMode.EXECUTOR, Optional.of(Path.of("/snapshots/epyc")), 250, 0, false, false, MemoryKind.CXL_PMEM, 4,
                Path.of("/run/chiplet"), PinningBackend.Kind.OPENHFT)));
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
        ChipletSettings.Parsed parsed = ChipletSettings.parse(Map.of(key, value));

        assertThat(parsed).isEqualTo(new ChipletSettings.Problem(key, value, expected));
        assertThat(((ChipletSettings.Problem) parsed).message()).isEqualTo("%s = '%s' is not usable: expected %s".formatted(key, value, expected));
    }

    @Test
    void misspeltSettingIsAProblemRatherThanSilentlyIgnored()
    {
        ChipletSettings.Parsed parsed = ChipletSettings.parse(Map.of("spark.chiplet.polcy", "wic"));

        assertThat(parsed).isInstanceOf(ChipletSettings.Problem.class);
        ChipletSettings.Problem problem = (ChipletSettings.Problem) parsed;
        assertThat(problem.key()).isEqualTo("spark.chiplet.polcy");
        assertThat(problem.expected()).startsWith("one of the settings ").contains(ChipletSettings.POLICY);
    }

    @Test
    void fsRootMustHoldASysfsSnapshot(@TempDir Path directory)
            throws IOException
    {
        ChipletSettings missing = settingsWithFsRoot(directory.resolve("absent"));
        assertThat(missing.checkFsRoot()).hasValueSatisfying(problem -> {
            assertThat(problem.key()).isEqualTo(ChipletSettings.FS_ROOT);
            assertThat(problem.value()).isEqualTo(directory.resolve("absent").toString());
        });

        ChipletSettings empty = settingsWithFsRoot(directory);
        assertThat(empty.checkFsRoot()).hasValueSatisfying(problem -> assertThat(problem.expected()).contains("sys/devices/system/cpu is missing"));

        Files.createDirectories(directory.resolve("sys/devices/system/cpu"));
        assertThat(empty.checkFsRoot()).isEmpty();
        assertThat(ChipletSettings.defaults().checkFsRoot()).isEmpty();
    }

    private static ChipletSettings settingsWithFsRoot(Path root)
    {
        return ((ChipletSettings.Valid) ChipletSettings.parse(Map.of(ChipletSettings.FS_ROOT, root.toString()))).settings();
    }

    @Test
    void aMachinesOwnSnapshotRootComesFromTheEnvironmentUnlessTheApplicationSetsOne()
    {
        assertThat(ChipletSettings.withHostFsRoot(java.util.Map.of(), java.util.Map.of(ChipletSettings.FS_ROOT_ENVIRONMENT, "/snapshots/epyc")))
                .containsEntry(ChipletSettings.FS_ROOT, "/snapshots/epyc");
        assertThat(ChipletSettings.withHostFsRoot(java.util.Map.of(ChipletSettings.FS_ROOT, "/app"), java.util.Map.of(ChipletSettings.FS_ROOT_ENVIRONMENT, "/snapshots/epyc")))
                .containsEntry(ChipletSettings.FS_ROOT, "/app");
        assertThat(ChipletSettings.withHostFsRoot(java.util.Map.of(), java.util.Map.of(ChipletSettings.FS_ROOT_ENVIRONMENT, " "))).doesNotContainKey(ChipletSettings.FS_ROOT);
    }
}
