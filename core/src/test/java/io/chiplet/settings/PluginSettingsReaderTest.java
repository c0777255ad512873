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
