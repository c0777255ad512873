package io.chiplet.settings;

import io.chiplet.measure.Arm;
import io.chiplet.measure.EffectInjector;
import io.chiplet.measure.GuardMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Core's one record of the measurement's settings, read under two engines' keys. */
class MeasureSettingsTest
{
    /** Every measurement declaration under a key, as Spark names them. */
    private static final Map<Setting<?>, String> ALL_KEYS = Map.ofEntries(
            Map.entry(PluginSettings.MEASURE_ENABLED, "m.enabled"),
            Map.entry(PluginSettings.MEASURE_CONTROL_SHARE, "m.share"),
            Map.entry(PluginSettings.GUARD, "m.guard"),
            Map.entry(PluginSettings.MEASURE_REPORT_DIR, "m.reports"),
            Map.entry(PluginSettings.MEASURE_SEED, "m.seed"),
            Map.entry(PluginSettings.MEASURE_INJECT_TIME_RATIO, "m.inject"),
            Map.entry(PluginSettings.MEASURE_DESIGN, "m.design"),
            Map.entry(PluginSettings.MEASURE_WINDOW, "m.window"),
            Map.entry(PluginSettings.MEASURE_WASHOUT, "m.washout"),
            Map.entry(PluginSettings.MEASURE_HISTORY_DIR, "m.history"),
            Map.entry(PluginSettings.MEASURE_KEY, "m.key"));
    /** Only what a Trino catalog reads: no design, washout, history or key. */
    private static final Map<Setting<?>, String> CATALOG_KEYS = Map.of(
            PluginSettings.MEASURE_ENABLED, "c.enabled",
            PluginSettings.MEASURE_CONTROL_SHARE, "c.share",
            PluginSettings.GUARD, "c.guard",
            PluginSettings.MEASURE_REPORT_DIR, "c.reports",
            PluginSettings.MEASURE_SEED, "c.seed",
            PluginSettings.MEASURE_INJECT_TIME_RATIO, "c.inject",
            PluginSettings.MEASURE_WINDOW, "c.window");

    @Test
    void bothEnginesReadTheSameRecordWithTheDeclaredDefaults()
    {
        MeasureSettings spark = MeasureSettings.read(PluginSettingsReader.of(ALL_KEYS, Map.of()));
        MeasureSettings trino = MeasureSettings.read(PluginSettingsReader.of(CATALOG_KEYS, Map.of()));
        assertThat(trino).isEqualTo(spark);
        assertThat(spark.enabled()).isTrue();
        assertThat(spark.controlShare()).isEqualTo(0.1);
        assertThat(spark.guard()).isEqualTo(GuardMode.AUTO);
        assertThat(spark.design()).isEqualTo(MeasureDesign.WINDOW);
        assertThat(spark.window()).isEqualTo(Duration.ofSeconds(30));
        assertThat(spark.washout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(spark.seed()).isEmpty();
        assertThat(spark.reportDirectory()).isEmpty();
        assertThat(spark.historyDirectory()).isEmpty();
        assertThat(spark.key()).isEmpty();
        assertThat(spark.injectTimeRatio()).isEmpty();
    }

    @Test
    void readsEveryValueGiven()
    {
        MeasureSettings settings = MeasureSettings.read(PluginSettingsReader.of(ALL_KEYS, Map.ofEntries(
                Map.entry("m.enabled", "false"), Map.entry("m.share", "0.2"), Map.entry("m.guard", "always"), Map.entry("m.reports", "/r"),
                Map.entry("m.seed", "-3"), Map.entry("m.inject", "0.8"), Map.entry("m.design", "TASK"), Map.entry("m.window", "2s"),
                Map.entry("m.washout", "500ms"), Map.entry("m.history", "/h"), Map.entry("m.key", "etl"))));
        assertThat(settings).isEqualTo(new MeasureSettings(false, 0.2, GuardMode.ALWAYS, Optional.of(Path.of("/r")), java.util.OptionalLong.of(-3),
                java.util.OptionalDouble.of(0.8), MeasureDesign.TASK, Duration.ofSeconds(2), Duration.ofMillis(500), Optional.of(Path.of("/h")), Optional.of("etl")));
        assertThat(settings.plan(5).seed()).as("the set seed wins over a drawn one").isEqualTo(-3);
        assertThat(settings.plan(5).controlShare().wide()).as("no control work while off").isZero();
    }

    @Test
    void theWashoutDefaultsToATenthOfAShortWindowAndMustBeShorterThanTheWindow()
    {
        assertThat(MeasureSettings.read(PluginSettingsReader.of(ALL_KEYS, Map.of("m.window", "5s"))).washout()).isEqualTo(Duration.ofMillis(500));
        assertThatThrownBy(() -> MeasureSettings.read(PluginSettingsReader.of(ALL_KEYS, Map.of("m.window", "1s", "m.washout", "1s"))))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("m.washout = '1000ms' is not usable: expected a washout shorter than m.window (1000ms)");
    }

    @Test
    void aBadValueNamesTheEnginesKey()
    {
        assertThatThrownBy(() -> MeasureSettings.read(PluginSettingsReader.of(CATALOG_KEYS, Map.of("c.guard", "never"))))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("c.guard = 'never' is not usable: expected auto or always");
    }

    @Test
    void theSeedWhereUnsetIsTheDrawnOne()
    {
        MeasureSettings settings = MeasureSettings.read(PluginSettingsReader.of(CATALOG_KEYS, Map.of()));
        assertThat(settings.plan(5).seed()).isEqualTo(5);
        assertThat(settings.plan().seed()).isEqualTo(MeasureSettings.DEFAULT_SEED);
        assertThat(settings.withSeed(7).plan().seed()).isEqualTo(7);
        assertThat(settings.withSeed(7).withSeed(8).plan().seed()).as("a seed in force stays").isEqualTo(7);
    }

    @Test
    void theInjectorActsOnlyWhereTheJvmAllowsIt()
    {
        MeasureSettings settings = MeasureSettings.read(PluginSettingsReader.of(CATALOG_KEYS, Map.of("c.inject", "1.25")));
        String before = System.getProperty(MeasureSettings.TEST_INJECTOR_PROPERTY);
        try {
            System.clearProperty(MeasureSettings.TEST_INJECTOR_PROPERTY);
            assertThat(settings.activeInjector()).isEmpty();
            System.setProperty(MeasureSettings.TEST_INJECTOR_PROPERTY, "true");
            assertThat(settings.activeInjector()).contains(new EffectInjector(1.25));
        }
        finally {
            if (before == null) {
                System.clearProperty(MeasureSettings.TEST_INJECTOR_PROPERTY);
            }
            else {
                System.setProperty(MeasureSettings.TEST_INJECTOR_PROPERTY, before);
            }
        }
    }

    @Test
    void theInjectorStretchesOneArm()
    {
        EffectInjector placedSlower = new EffectInjector(1.25);
        assertThat(placedSlower.slowedArm()).isEqualTo(Arm.PLACED);
        assertThat(placedSlower.stretch(Arm.PLACED)).isEqualTo(1.25);
        assertThat(placedSlower.stretch(Arm.CONTROL)).isEqualTo(1);
        assertThat(placedSlower.extraNanos(Arm.PLACED, 1_000)).isEqualTo(250);
        assertThat(placedSlower.extraNanos(Arm.CONTROL, 1_000)).isZero();
        EffectInjector controlSlower = new EffectInjector(0.8);
        assertThat(controlSlower.slowedArm()).isEqualTo(Arm.CONTROL);
        assertThat(controlSlower.stretch(Arm.CONTROL)).isEqualTo(1.25);
        assertThat(controlSlower.row(3, Arm.CONTROL)).as("the work is stretched, the value is not").isEqualTo(EffectInjector.expectedRow(3));
        assertThatThrownBy(() -> new EffectInjector(10.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
