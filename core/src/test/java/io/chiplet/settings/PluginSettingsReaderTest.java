package io.chiplet.settings;

import io.chiplet.placement.Policy;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginSettingsReaderTest
{
    private static final Map<Setting<?>, String> KEYS = Map.of(
            PluginSettings.ENABLED, "engine.on",
            PluginSettings.POLICY, "engine.spread",
            PluginSettings.FS_ROOT, "engine.root");

    @Test
    void readsEachDeclarationUnderTheEnginesKeyStrippedAndIgnoresOtherEntries()
    {
        PluginSettingsReader reader = PluginSettingsReader.of(KEYS, Map.of(
                "engine.on", " FALSE\t",
                "engine.root", " /snap ",
                "enabled", "true",
                "other.policy", "wic"));

        assertThat(reader.read(PluginSettings.ENABLED)).isFalse();
        assertThat(reader.read(PluginSettings.POLICY)).isEqualTo(Policy.AUTO);
        assertThat(reader.readIfSet(PluginSettings.FS_ROOT)).contains(Path.of("/snap"));
        assertThat(PluginSettingsReader.of(KEYS, Map.of()).readIfSet(PluginSettings.FS_ROOT)).isEmpty();
    }

    @Test
    void aBadValueNamesTheEnginesKeyTheValueAndWhatTheDeclarationAccepts()
    {
        PluginSettingsReader reader = PluginSettingsReader.of(KEYS, Map.of("engine.spread", " fastest "));

        assertThatThrownBy(() -> reader.read(PluginSettings.POLICY))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("engine.spread");
                    assertThat(e.value()).isEqualTo("fastest");
                    assertThat(e.expected()).isEqualTo(PluginSettings.POLICY.expected());
                });
    }

    @Test
    void aDeclarationTheEngineGivesNoKeyIsAProgrammingError()
    {
        assertThatThrownBy(() -> PluginSettingsReader.of(KEYS, Map.of()).read(PluginSettings.MEMORY_BIND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.bind");
    }

    @Test
    void aDeclarationTheEngineGivesNoKeyTakesItsDefaultWhereTheSharedRecordAsksForIt()
    {
        PluginSettingsReader reader = PluginSettingsReader.of(KEYS, Map.of("engine.root", "/snap", "memory.bind", "false"));

        assertThat(reader.readOrDefault(PluginSettings.MEMORY_BIND)).as("no key: the declared default, whatever is given elsewhere").isTrue();
        assertThat(reader.readOrDefault(PluginSettings.ENABLED)).as("a key: read as ever").isTrue();
        assertThat(reader.readIfKeyed(PluginSettings.MEASURE_KEY)).isEmpty();
        assertThat(reader.readIfKeyed(PluginSettings.FS_ROOT)).contains(Path.of("/snap"));
        assertThat(reader.keyOf(PluginSettings.FS_ROOT)).isEqualTo("engine.root");
        assertThatThrownBy(() -> reader.keyOf(PluginSettings.MEMORY_BIND)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reader.readOrDefault(PluginSettings.MEASURE_SEED)).as("no key and no default")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("measure.seed");
    }

    @Test
    void bothEnginesKeysReadIntoOnePlacementRecord()
    {
        // Each engine names some declarations; the others take core's defaults, so both get the same record type.
        PlacementSettings spark = PlacementSettings.read(PluginSettingsReader.of(
                Map.of(PluginSettings.MODE, "spark.mode", PluginSettings.POLICY, "spark.policy"), Map.of("spark.mode", "executor", "spark.policy", "wic")));
        PlacementSettings trino = PlacementSettings.read(PluginSettingsReader.of(
                Map.of(PluginSettings.CHIPLETS_PER_NODE, "chiplets", PluginSettings.POLICY, "policy"), Map.of("chiplets", "2", "policy", "wic")));

        assertThat(spark.mode()).isEqualTo(PlacementMode.EXECUTOR);
        assertThat(trino.mode()).isEqualTo(PlacementMode.TASK);
        assertThat(trino.chipletsPerNode()).hasValue(2);
        assertThat(spark.chipletsPerNode()).isEmpty();
        assertThat(spark.withMode(PlacementMode.TASK).withMode(PlacementMode.EXECUTOR)).isEqualTo(spark);
        assertThat(trino.withMode(PlacementMode.EXECUTOR).chipletsPerNode()).hasValue(2);
        assertThat(PlacementSettings.read(PluginSettingsReader.of(Map.of(), Map.of())).policy()).isEqualTo(Policy.AUTO);
    }

    @Test
    void theFirstClaimedKeyThatIsNoSettingIsRejected()
    {
        Map<String, String> given = Map.of("engine.on", "true", "engine.zz", "1", "engine.spred", " wic ", "unrelated", "x");

        assertThatThrownBy(() -> PluginSettingsReader.rejectUnknown(given, key -> key.startsWith("engine."), KEYS.values(), "one of the settings"))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("engine.spred");
                    assertThat(e.value()).isEqualTo("wic");
                    assertThat(e.expected()).isEqualTo("one of the settings");
                });
        PluginSettingsReader.rejectUnknown(Map.of("engine.on", "true", "unrelated", "x"), key -> key.startsWith("engine."), List.copyOf(KEYS.values()), "x");
    }
}
