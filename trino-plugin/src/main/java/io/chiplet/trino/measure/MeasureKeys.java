package io.chiplet.trino.measure;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;

import java.util.List;
import java.util.Map;

/**
 * The catalog properties of the in-place measurement's settings (docs/trino.md), {@code chiplet.measure.*} and
 * {@code chiplet.guard}: core declares each ({@link PluginSettings}) and reads them into its {@link MeasureSettings};
 * this class only names their properties. The coordinator's catalog decides the schedule from them; the workers follow
 * what the coordinator publishes and read only the test-only injector. Trino reads no design, washout, history or key
 * (Spark's): those take core's defaults.
 */
public final class MeasureKeys
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

    private MeasureKeys() {}

    public static MeasureSettings defaults()
    {
        return parse(Map.of());
    }

    /**
     * @throws InvalidSettingException naming the first property that is not usable
     */
    public static MeasureSettings parse(Map<String, String> properties)
    {
        return MeasureSettings.read(PluginSettingsReader.of(DECLARED, properties));
    }
}
