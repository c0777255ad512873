package io.chiplet.trino.measure;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.ControlShare;
import io.chiplet.measure.GuardMode;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.StratifiedArmEstimator;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The {@code chiplet.measure.*} and {@code chiplet.guard} settings of a chiplet catalog (docs/trino.md). The
 * coordinator's catalog decides the schedule from them; the workers follow what the coordinator publishes and read
 * only the test-only injector.
 *
 * @param enabled false: no control windows, no estimate; placement as configured
 * @param controlShare the share of control windows while the interval is wide (a quarter of it once decisive)
 * @param window each window's length
 * @param reportDirectory where the coordinator writes the JSON and HTML report
 * @param seed the draw's seed; empty for one drawn at the coordinator's start
 * @param injectTimeRatio test only: placed over control time the injector makes ({@link EffectInjector})
 */
public record MeasureSettings(boolean enabled, double controlShare, Duration window, GuardMode guard, Optional<Path> reportDirectory, OptionalLong seed,
        OptionalDouble injectTimeRatio)
{
    public static final String ENABLED = "chiplet.measure.enabled";
    public static final String CONTROL_SHARE = "chiplet.measure.control-share";
    public static final String WINDOW = "chiplet.measure.window";
    public static final String GUARD = "chiplet.guard";
    public static final String REPORT_DIR = "chiplet.measure.report-dir";
    public static final String SEED = "chiplet.measure.seed";
    public static final String INJECT_TIME_RATIO = "chiplet.measure.test.inject-time-ratio";

    public static final List<String> PROPERTIES = List.of(ENABLED, CONTROL_SHARE, WINDOW, GUARD, REPORT_DIR, SEED, INJECT_TIME_RATIO);

    /** Each setting's catalog property, by core's declaration (which holds its type, default and bounds). */
    public static final Map<Setting<?>, String> DECLARED = Map.of(
            PluginSettings.MEASURE_ENABLED, ENABLED,
            PluginSettings.MEASURE_CONTROL_SHARE, CONTROL_SHARE,
            PluginSettings.MEASURE_WINDOW, WINDOW,
            PluginSettings.GUARD, GUARD,
            PluginSettings.MEASURE_REPORT_DIR, REPORT_DIR,
            PluginSettings.MEASURE_SEED, SEED,
            PluginSettings.MEASURE_INJECT_TIME_RATIO, INJECT_TIME_RATIO);

    public MeasureSettings
    {
        ArmAssignment.blockSize(controlShare);
        requireNonNull(window, "window is null");
        requireNonNull(guard, "guard is null");
        requireNonNull(reportDirectory, "reportDirectory is null");
        requireNonNull(seed, "seed is null");
        requireNonNull(injectTimeRatio, "injectTimeRatio is null");
    }

    public static MeasureSettings defaults()
    {
        return parse(Map.of());
    }

    /**
     * @throws InvalidSettingException naming the first setting that is not usable
     */
    public static MeasureSettings parse(Map<String, String> properties)
    {
        PluginSettingsReader settings = PluginSettingsReader.of(DECLARED, properties);
        return new MeasureSettings(
                settings.read(PluginSettings.MEASURE_ENABLED),
                settings.read(PluginSettings.MEASURE_CONTROL_SHARE),
                settings.read(PluginSettings.MEASURE_WINDOW),
                settings.read(PluginSettings.GUARD),
                settings.readIfSet(PluginSettings.MEASURE_REPORT_DIR),
                settings.readIfSet(PluginSettings.MEASURE_SEED).map(OptionalLong::of).orElse(OptionalLong.empty()),
                settings.readIfSet(PluginSettings.MEASURE_INJECT_TIME_RATIO).map(OptionalDouble::of).orElse(OptionalDouble.empty()));
    }

    /** Core's plan for these settings, with {@code drawnSeed} where no seed is set. */
    public MeasurementPlan plan(long drawnSeed)
    {
        return new MeasurementPlan(enabled, ControlShare.of(controlShare), guard, seed.orElse(drawnSeed), StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }
}
