package io.chiplet.spark.settings;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.ControlShare;
import io.chiplet.measure.GuardMode;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.StratifiedArmEstimator;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;


import io.chiplet.measure.SwitchbackSchedule;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The in-place measurement's settings (docs/measuring.md), {@code spark.chiplet.measure.*} and
 * {@code spark.chiplet.guard}, read beside {@link ChipletSettings} (which accepts their keys).
 *
 * @param enabled {@code spark.chiplet.measure.enabled}: a control share of tasks runs unplaced and the driver
 *         estimates placement's speed-up (default true)
 * @param controlShare {@code spark.chiplet.measure.controlShare}: the share of tasks run as control while the
 *         interval is wide (default 0.10); a quarter of it once decisive
 * @param guard {@code spark.chiplet.guard}: {@code auto} stops placing once placed tasks are measurably slower
 *         (default), {@code always} places regardless
 * @param reportDir {@code spark.chiplet.measure.reportDir}: where the driver writes each application's report
 *         (JSON and HTML); none when unset
 * @param seed {@code spark.chiplet.measure.seed}: the arms' seed; by default a fixed one, so that every executor draws
 *         alike (the draw mixes in each stage's id) and a run can be repeated
 * @param injectedTimeRatio {@code spark.chiplet.measure.test.injectTimeRatio}: test only, honoured only where the JVM
 *         runs with {@code -D}{@value #TEST_INJECTOR_PROPERTY}{@code =true}: placed tasks take this factor (0.1 to 10) of a
 *         control task's time (0.8: control tasks are slowed by 1/0.8)
 */
public record MeasureSettings(boolean enabled, double controlShare, GuardMode guard, Optional<Path> reportDir, OptionalLong seed,
        OptionalDouble injectedTimeRatio, Design design, Duration window, Duration washout, Optional<Path> historyDir, Optional<String> key)
{
    /** How arms are drawn in task mode ({@code spark.chiplet.measure.design}). */
    public enum Design
    {
        /** Switchback windows per host: every executor of a host places or not for a window (the default). */
        WINDOW,
        /** A control share of each stage's tasks, beside placed ones on the same executors (opt-in; interference). */
        TASK
    }

    /** The settings as before switchback windows: task-level arms, for tests of that design. */
    public MeasureSettings(boolean enabled, double controlShare, GuardMode guard, Optional<Path> reportDir, OptionalLong seed, OptionalDouble injectedTimeRatio)
    {
        this(enabled, controlShare, guard, reportDir, seed, injectedTimeRatio, Design.TASK, PluginSettings.DEFAULT_MEASURE_WINDOW, PluginSettings.DEFAULT_MEASURE_WASHOUT,
                Optional.empty(), Optional.empty());
    }

    public static final String ENABLED = ChipletSettings.PREFIX + "measure.enabled";
    public static final String CONTROL_SHARE = ChipletSettings.PREFIX + "measure.controlShare";
    public static final String GUARD = ChipletSettings.PREFIX + "guard";
    public static final String REPORT_DIR = ChipletSettings.PREFIX + "measure.reportDir";
    public static final String SEED = ChipletSettings.PREFIX + "measure.seed";
    public static final String INJECT_TIME_RATIO = ChipletSettings.PREFIX + "measure.test.injectTimeRatio";
    public static final String DESIGN = ChipletSettings.PREFIX + "measure.design";
    public static final String WINDOW = ChipletSettings.PREFIX + "measure.window";
    public static final String WASHOUT = ChipletSettings.PREFIX + "measure.washout";
    public static final String HISTORY_DIR = ChipletSettings.PREFIX + "measure.historyDir";
    public static final String KEY = ChipletSettings.PREFIX + "measure.key";
    /** The system property without which {@link #INJECT_TIME_RATIO} is ignored: it never acts in normal use. */
    public static final String TEST_INJECTOR_PROPERTY = "chiplet.test.effectInjector";

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

    public MeasureSettings
    {
        requireNonNull(guard, "guard is null");
        requireNonNull(reportDir, "reportDir is null");
        requireNonNull(seed, "seed is null");
        requireNonNull(injectedTimeRatio, "injectedTimeRatio is null");
        requireNonNull(design, "design is null");
        requireNonNull(window, "window is null");
        requireNonNull(washout, "washout is null");
        requireNonNull(historyDir, "historyDir is null");
        requireNonNull(key, "key is null");
        ArmAssignment.blockSize(controlShare);
    }

    private static Duration washout(PluginSettingsReader settings)
    {
        Duration window = settings.read(PluginSettings.MEASURE_WINDOW);
        Optional<Duration> set = settings.readIfSet(PluginSettings.MEASURE_WASHOUT);
        if (set.isEmpty()) {
            // By default at most a tenth of the window: short windows (a trial) keep most of their tasks.
            Duration defaultWashout = settings.read(PluginSettings.MEASURE_WASHOUT);
            return defaultWashout.compareTo(window.dividedBy(10)) <= 0 ? defaultWashout : window.dividedBy(10);
        }
        Duration washout = set.get();
        if (washout.compareTo(window) >= 0) {
            throw new InvalidSettingException(WASHOUT, washout.toMillis() + "ms", "a washout shorter than " + WINDOW + " (" + window.toMillis() + "ms)");
        }
        return washout;
    }

    /** Reads the measurement settings from a Spark configuration's entries; other entries are ignored. */
    public static Parsed parse(Map<String, String> conf)
    {
        requireNonNull(conf, "conf is null");
        PluginSettingsReader settings = PluginSettingsReader.of(DECLARED, conf);
        try {
            return new Valid(new MeasureSettings(
                    settings.read(PluginSettings.MEASURE_ENABLED),
                    settings.read(PluginSettings.MEASURE_CONTROL_SHARE),
                    settings.read(PluginSettings.GUARD),
                    settings.readIfSet(PluginSettings.MEASURE_REPORT_DIR),
                    settings.readIfSet(PluginSettings.MEASURE_SEED).map(OptionalLong::of).orElse(OptionalLong.empty()),
                    settings.readIfSet(PluginSettings.MEASURE_INJECT_TIME_RATIO).map(OptionalDouble::of).orElse(OptionalDouble.empty()),
                    settings.read(PluginSettings.MEASURE_DESIGN).equals("task") ? Design.TASK : Design.WINDOW,
                    settings.read(PluginSettings.MEASURE_WINDOW),
                    washout(settings),
                    settings.readIfSet(PluginSettings.MEASURE_HISTORY_DIR),
                    settings.readIfSet(PluginSettings.MEASURE_KEY)));
        }
        catch (InvalidSettingException e) {
            return new Invalid(new ChipletSettings.Problem(e.setting(), e.value(), e.expected()));
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

    public record Invalid(ChipletSettings.Problem problem)
            implements Parsed
    {
        public Invalid
        {
            requireNonNull(problem, "problem is null");
        }
    }

    /** The seed when none is set. */
    public static final long DEFAULT_SEED = PluginSettings.DEFAULT_MEASURE_SEED;

    /** Core's plan for these settings. */
    public MeasurementPlan plan()
    {
        return new MeasurementPlan(enabled, ControlShare.of(enabled ? controlShare : 0), guard, seed.orElse(DEFAULT_SEED),
                StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }

    /** The seed in force: the one set, else the one the driver drew for this application. */
    public MeasureSettings withSeed(long drawn)
    {
        return seed.isPresent() ? this : new MeasureSettings(enabled, controlShare, guard, reportDir, OptionalLong.of(drawn), injectedTimeRatio, design, window, washout, historyDir, key);
    }

    /** The host's switchback schedule (core's), for {@link Design#WINDOW}. */
    public SwitchbackSchedule schedule()
    {
        return SwitchbackSchedule.of(seed.orElse(DEFAULT_SEED), window.toMillis(), washout.toMillis());
    }

    /** The injected effect where the test property allows it; empty in normal use. */
    public OptionalDouble activeInjection()
    {
        return Boolean.getBoolean(TEST_INJECTOR_PROPERTY) ? injectedTimeRatio : OptionalDouble.empty();
    }
}
