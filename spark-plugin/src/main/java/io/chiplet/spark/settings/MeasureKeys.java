package io.chiplet.spark.settings;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;

import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The Spark keys of the in-place measurement's settings (docs/measuring.md), {@code spark.chiplet.measure.*} and
 * {@code spark.chiplet.guard}: core declares each ({@link PluginSettings}) and reads them into its
 * {@link MeasureSettings}; this class only names their keys, read beside {@link SparkSettings} (which accepts them).
 */
public final class MeasureKeys
{
    public static final String ENABLED = SparkSettings.PREFIX + "measure.enabled";
    public static final String CONTROL_SHARE = SparkSettings.PREFIX + "measure.controlShare";
    public static final String GUARD = SparkSettings.PREFIX + "guard";
    public static final String REPORT_DIR = SparkSettings.PREFIX + "measure.reportDir";
    public static final String SEED = SparkSettings.PREFIX + "measure.seed";
    public static final String INJECT_TIME_RATIO = SparkSettings.PREFIX + "measure.test.injectTimeRatio";
    public static final String DESIGN = SparkSettings.PREFIX + "measure.design";
    public static final String WINDOW = SparkSettings.PREFIX + "measure.window";
    public static final String WASHOUT = SparkSettings.PREFIX + "measure.washout";
    public static final String HISTORY_DIR = SparkSettings.PREFIX + "measure.historyDir";
    public static final String KEY = SparkSettings.PREFIX + "measure.key";

    public static final Set<String> KEYS = Set.of(ENABLED, CONTROL_SHARE, GUARD, REPORT_DIR, SEED, INJECT_TIME_RATIO, DESIGN, WINDOW, WASHOUT, HISTORY_DIR, KEY);

    /** Each measurement setting's Spark key, by core's declaration. */
    public static final Map<Setting<?>, String> DECLARED = Map.ofEntries(
            Map.entry(PluginSettings.MEASURE_DESIGN, DESIGN),
            Map.entry(PluginSettings.MEASURE_WINDOW, WINDOW),
            Map.entry(PluginSettings.MEASURE_WASHOUT, WASHOUT),
            Map.entry(PluginSettings.MEASURE_HISTORY_DIR, HISTORY_DIR),
            Map.entry(PluginSettings.MEASURE_KEY, KEY),
            Map.entry(PluginSettings.MEASURE_ENABLED, ENABLED),
            Map.entry(PluginSettings.MEASURE_CONTROL_SHARE, CONTROL_SHARE),
            Map.entry(PluginSettings.GUARD, GUARD),
            Map.entry(PluginSettings.MEASURE_REPORT_DIR, REPORT_DIR),
            Map.entry(PluginSettings.MEASURE_SEED, SEED),
            Map.entry(PluginSettings.MEASURE_INJECT_TIME_RATIO, INJECT_TIME_RATIO));

    private MeasureKeys() {}

    /** Reads the measurement settings from a Spark configuration's entries; other entries are ignored. */
    public static Parsed parse(Map<String, String> conf)
    {
        requireNonNull(conf, "conf is null");
        try {
            return new Valid(MeasureSettings.read(PluginSettingsReader.of(DECLARED, conf)));
        }
        catch (InvalidSettingException e) {
            return new Invalid(new SparkSettings.Problem(e.setting(), e.value(), e.expected()));
        }
    }

    /** The outcome of reading the settings: valid ones, or the first bad setting. */
    public sealed interface Parsed
            permits Valid, Invalid
    {}

    public record Valid(MeasureSettings settings)
            implements Parsed
    {
        public Valid
        {
            requireNonNull(settings, "settings is null");
        }
    }

    public record Invalid(SparkSettings.Problem problem)
            implements Parsed
    {
        public Invalid
        {
            requireNonNull(problem, "problem is null");
        }
    }
}
