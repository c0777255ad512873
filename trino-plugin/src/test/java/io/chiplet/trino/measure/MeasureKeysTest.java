package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.EffectInjector;
import io.chiplet.measure.GuardMode;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.MeasureSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MeasureKeysTest
{
    @Test
    void defaultsMeasureATenthOfThirtySecondWindowsWithTheGuardOn()
    {
        MeasureSettings settings = MeasureKeys.defaults();
        assertThat(settings.enabled()).isTrue();
        assertThat(settings.controlShare()).isEqualTo(0.1);
        assertThat(settings.window()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.guard()).isEqualTo(GuardMode.AUTO);
        assertThat(settings.reportDirectory()).isEmpty();
        assertThat(settings.seed()).isEmpty();
        assertThat(settings.injectTimeRatio()).isEmpty();
        assertThat(settings.plan(5).seed()).as("the drawn seed where none is set").isEqualTo(5);
    }

    @Test
    void readsEverySetting()
    {
        MeasureSettings settings = MeasureKeys.parse(Map.of(MeasureKeys.ENABLED, "false", MeasureKeys.CONTROL_SHARE, "0.25",
                MeasureKeys.WINDOW, "1m", MeasureKeys.GUARD, "ALWAYS", MeasureKeys.REPORT_DIR, "/var/log/chiplet", MeasureKeys.SEED, "-3",
                MeasureKeys.INJECT_TIME_RATIO, "0.8"));
        assertThat(settings.enabled()).isFalse();
        assertThat(settings.controlShare()).isEqualTo(0.25);
        assertThat(settings.window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(settings.guard()).isEqualTo(GuardMode.ALWAYS);
        assertThat(settings.reportDirectory()).contains(Path.of("/var/log/chiplet"));
        assertThat(settings.seed()).isEqualTo(OptionalLong.of(-3));
        assertThat(settings.injectTimeRatio().getAsDouble()).isEqualTo(0.8);
        assertThat(settings.plan(5).seed()).isEqualTo(-3);
    }

    @Test
    void aBadValueNamesTheSettingAndWhatWasExpected()
    {
        assertThatThrownBy(() -> MeasureKeys.parse(Map.of(MeasureKeys.CONTROL_SHARE, "0.6")))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("chiplet.measure.control-share").hasMessageContaining("from 0 to 0.5");
        assertThatThrownBy(() -> MeasureKeys.parse(Map.of(MeasureKeys.WINDOW, "50ms")))
                .hasMessageContaining("chiplet.measure.window").hasMessageContaining("at least 100ms");
        assertThatThrownBy(() -> MeasureKeys.parse(Map.of(MeasureKeys.GUARD, "sometimes")))
                .hasMessageContaining("chiplet.guard").hasMessageContaining("auto or always");
        assertThatThrownBy(() -> MeasureKeys.parse(Map.of(MeasureKeys.INJECT_TIME_RATIO, "20")))
                .hasMessageContaining("chiplet.measure.test.inject-time-ratio");
    }

    @Test
    void theInjectorStretchesOneArmsWorkAndNeverItsValue()
    {
        assertThat(MeasureSettings.injectorAllowed()).as("off unless the JVM allows it").isFalse();
        EffectInjector harm = new EffectInjector(1.25);
        assertThat(harm.stretch(Arm.PLACED)).isEqualTo(1.25);
        assertThat(harm.stretch(Arm.CONTROL)).isEqualTo(1);
        EffectInjector gain = new EffectInjector(0.8);
        assertThat(gain.stretch(Arm.PLACED)).isEqualTo(1);
        assertThat(gain.stretch(Arm.CONTROL)).isEqualTo(1.25);
        for (long row = 0; row < 3; row++) {
            assertThat(harm.row(row, Arm.PLACED)).isEqualTo(EffectInjector.expectedRow(row)).isEqualTo(gain.row(row, Arm.CONTROL));
        }
    }
}
