package io.chiplet.settings;

import io.chiplet.placement.Policy;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsReaderTest
{
    private final SettingsReader reader = new SettingsReader(Map.of(
            "chiplet.enabled", "FALSE",
            "chiplet.policy", "wicp_mixed",
            "chiplet.cores", "many",
            "chiplet.root", ""));

    @Test
    void givenValuesWinOverDefaults()
    {
        assertThat(reader.read("chiplet.enabled", "true", SettingValues::parseBoolean)).isFalse();
        assertThat(reader.read("chiplet.policy", "auto", SettingValues::parsePolicy)).isEqualTo(Policy.WICP_MIXED);
        int count = reader.read("chiplet.absent", "7", value -> SettingValues.parseInt(value, 0, "a count"));
        assertThat(count).isEqualTo(7);
    }

    @Test
    void optionalSettingsAreEmptyOnlyWhenAbsent()
    {
        assertThat(reader.readIfSet("chiplet.absent", SettingValues::parsePath)).isEmpty();
        assertThatThrownBy(() -> reader.readIfSet("chiplet.root", SettingValues::parsePath))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.expected()).isEqualTo("a file system path"));
        assertThat(new SettingsReader(Map.of("chiplet.root", "/snap")).readIfSet("chiplet.root", SettingValues::parsePath)).contains(Path.of("/snap"));
    }

    @Test
    void aBadValueNamesTheSettingTheValueAndWhatWasExpected()
    {
        assertThatThrownBy(() -> reader.read("chiplet.cores", "0", value -> SettingValues.parseInt(value, 0, "a whole number of cores")))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("chiplet.cores");
                    assertThat(e.value()).isEqualTo("many");
                    assertThat(e.expected()).isEqualTo("a whole number of cores");
                })
                .hasMessage("chiplet.cores = 'many' is not usable: expected a whole number of cores");
    }

    @Test
    void aBadDefaultIsReportedLikeAGivenValue()
    {
        assertThatThrownBy(() -> reader.read("chiplet.absent", "-1", value -> SettingValues.parseInt(value, 0, "0 or more")))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.value()).isEqualTo("-1"));
    }

    @Test
    void sharedParsersSayWhatTheyAccept()
    {
        assertThatThrownBy(() -> SettingValues.parseBoolean("yes")).isInstanceOfSatisfying(UnusableValueException.class,
                e -> assertThat(e.expected()).isEqualTo("true or false"));
        assertThatThrownBy(() -> SettingValues.parseInt("99999999999", 0, "a count")).isInstanceOf(UnusableValueException.class);
        assertThatThrownBy(() -> SettingValues.parseInt("-2", -1, "-1 or more")).isInstanceOf(UnusableValueException.class);
        assertThat(SettingValues.parseInt("-1", -1, "-1 or more")).isEqualTo(-1);
        assertThatThrownBy(() -> SettingValues.parsePolicy("fastest")).isInstanceOfSatisfying(UnusableValueException.class,
                e -> assertThat(e.expected()).isEqualTo("one of " + Policy.validNames()));
    }
}
