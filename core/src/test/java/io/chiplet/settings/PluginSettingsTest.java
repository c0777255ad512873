package io.chiplet.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.measure.GuardMode;
import io.chiplet.placement.Policy;
import io.chiplet.topology.MemoryKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginSettingsTest
{
    @Test
    void defaultsAreWrittenOut()
    {
        assertThat(PluginSettings.ENABLED.defaultParsed()).contains(true);
        assertThat(PluginSettings.POLICY.defaultParsed()).contains(Policy.AUTO);
        assertThat(PluginSettings.FS_ROOT.defaultParsed()).isEmpty();
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.defaultParsed()).contains(Duration.ofMillis(500));
        assertThat(PluginSettings.REMOTE_ACCESS_THRESHOLD.defaultParsed()).contains(300.0);
        assertThat(PluginSettings.MEMORY_BIND.defaultParsed()).contains(true);
        assertThat(PluginSettings.MEMORY_KIND.defaultParsed()).contains(MemoryKind.DRAM);
        assertThat(PluginSettings.VIRTUAL_CHIPLET_CORES.defaultParsed()).contains(0);
        assertThat(PluginSettings.LEASE_DIR.defaultParsed()).contains(Path.of(System.getProperty("java.io.tmpdir"), "chiplet-leases"));
        assertThat(PluginSettings.MODE.defaultParsed()).contains(PlacementMode.TASK);
        assertThat(PluginSettings.PINNING_BACKEND.defaultParsed()).contains(PinningBackend.Kind.FFM);
        assertThat(PluginSettings.MEASURE_DESIGN.defaultParsed()).contains(MeasureDesign.WINDOW);
        assertThat(PluginSettings.CHIPLETS_PER_NODE.defaultParsed()).contains(OptionalInt.empty());
        assertThat(PluginSettings.RESCAN_INTERVAL.defaultParsed()).contains(Duration.ofSeconds(1));
        assertThat(PluginSettings.MEASURE_CONTROL_SHARE.defaultParsed()).contains(0.1);
        assertThat(PluginSettings.MEASURE_WINDOW.defaultParsed()).contains(Duration.ofSeconds(30));
        assertThat(PluginSettings.GUARD.defaultParsed()).contains(GuardMode.AUTO);
        assertThat(PluginSettings.MEASURE_SEED.defaultParsed()).isEmpty();
        assertThat(PluginSettings.SKEW_MAX_OVER_MEDIAN.defaultParsed()).contains(2.0);
        assertThat(PluginSettings.SKEW_MIN_STAGE_ROWS.defaultParsed()).contains(10_000L);
        assertThat(PluginSettings.SKEW_CONSOLIDATE_BELOW_BYTES.defaultParsed()).contains(1L << 20);
        assertThat(PluginSettings.SKEW_WINDOW_QUERIES.defaultParsed()).contains(4);
    }

    @Test
    void valuesParseToWhatTheySay()
    {
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("10")).isEqualTo(Duration.ofMillis(10));
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(PluginSettings.ADAPTIVE_INTERVAL.parse("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(PluginSettings.REMOTE_ACCESS_THRESHOLD.parse("2.5")).isEqualTo(2.5);
        assertThat(PluginSettings.POLICY.parse("WICP-Mixed")).isEqualTo(Policy.WICP_MIXED);
        assertThat(PluginSettings.MODE.parse("EXECUTOR")).isEqualTo(PlacementMode.EXECUTOR);
        assertThat(PluginSettings.CHIPLETS_PER_NODE.parse("3")).isEqualTo(OptionalInt.of(3));
        assertThat(PluginSettings.MEASURE_SEED.parse("-7")).isEqualTo(-7L);
    }

    @Test
    void aRejectedValueSaysWhatTheDeclarationAccepts()
    {
        assertThatThrownBy(() -> PluginSettings.ADAPTIVE_INTERVAL.parse("9"))
                .isInstanceOfSatisfying(UnusableValueException.class, e -> assertThat(e.expected())
                        .isEqualTo("a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms"));
        assertThatThrownBy(() -> PluginSettings.MEASURE_CONTROL_SHARE.parse("0.51"))
                .isInstanceOfSatisfying(UnusableValueException.class, e -> assertThat(e.expected()).isEqualTo("a control share from 0 to 0.5, e.g. 0.1"));
        assertThatThrownBy(() -> new SettingsReader(Map.of("spark.chiplet.adaptive.intervalMs", "5")).read("spark.chiplet.adaptive.intervalMs", PluginSettings.ADAPTIVE_INTERVAL))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("spark.chiplet.adaptive.intervalMs");
                    assertThat(e.value()).isEqualTo("5");
                });
    }

    @Test
    void everyDeclarationHasCasesAndAUniqueStem()
    {
        assertThat(PluginSettings.ALL.stream().map(Setting::stem).collect(Collectors.toSet())).hasSize(PluginSettings.ALL.size());
        assertThat(PluginSettingsContract.ACCEPTED.keySet()).containsExactlyInAnyOrderElementsOf(PluginSettings.ALL);
        assertThat(PluginSettingsContract.REJECTED.keySet()).containsExactlyInAnyOrderElementsOf(PluginSettings.ALL);
        for (Setting<?> setting : PluginSettings.ALL) {
            // Every default is a value the setting accepts.
            setting.defaultParsed();
            for (String value : PluginSettingsContract.ACCEPTED.get(setting)) {
                setting.parse(value);
            }
            for (String value : PluginSettingsContract.REJECTED.get(setting)) {
                assertThatThrownBy(() -> setting.parse(value)).as("%s = '%s'", setting.stem(), value).isInstanceOf(UnusableValueException.class);
            }
        }
    }

    @Test
    void aSettingWithoutDefaultIsReadOnlyWhereGiven()
    {
        SettingsReader reader = new SettingsReader(Map.of());
        assertThat(reader.readIfSet("chiplet.measure.seed", PluginSettings.MEASURE_SEED)).isEmpty();
        assertThatThrownBy(() -> reader.read("chiplet.measure.seed", PluginSettings.MEASURE_SEED)).isInstanceOf(IllegalArgumentException.class);
    }
}
