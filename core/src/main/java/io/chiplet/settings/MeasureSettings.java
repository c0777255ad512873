package io.chiplet.settings;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.ControlFraction;
import io.chiplet.measure.EffectInjector;
import io.chiplet.measure.GuardMode;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.StratifiedArmEstimator;
import io.chiplet.measure.SwitchbackSchedule;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The in-place measurement's settings (docs/measuring.md), parsed: the {@code measure.*} and {@code guard} declarations of
 * {@link PluginSettings}, read once for both engines. Each plugin only names its keys ({@code spark.chiplet.measure.*},
 * a catalog's {@code chiplet.measure.*}) and hands its configuration to {@link #read}; a declaration an engine gives no
 * key (Trino reads no design, washout, history or key) takes its declared default.
 *
 * @param enabled false: no control work, no estimate; placement as configured
 * @param controlShare the share of control work while the interval is wide; a quarter of it once decisive
 * @param guard {@code auto} stops placing once placed work is measurably slower; {@code always} places regardless
 * @param reportDirectory where the JSON and HTML report is written; none when unset
 * @param seed the arms' seed; empty where none is set (Spark: {@link #DEFAULT_SEED}, or the driver's draw; Trino: the
 *         coordinator's draw at its start)
 * @param injectTimeRatio test only, honoured only where the JVM allows it ({@link #activeInjector}): placed over control
 *         time the injector makes
 * @param design switchback windows per host, or a control share of each stage's tasks (Spark only)
 * @param window the switchback windows' length (Spark's: their shortest, lengthened by {@code WindowLength}'s rule)
 * @param washout after a switch of arm, work starting this long into the new window is left out (Spark only)
 * @param historyDirectory where recurring runs are kept (Spark only)
 * @param key the name recurring runs are pooled under (Spark only; the application's name by default)
 */
public record MeasureSettings(boolean enabled, double controlShare, GuardMode guard, Optional<Path> reportDirectory, OptionalLong seed,
        OptionalDouble injectTimeRatio, MeasureDesign design, Duration window, Duration washout, Optional<Path> historyDirectory, Optional<String> key)
{
    /** The seed where none is set and the engine draws none: every executor draws alike. */
    public static final long DEFAULT_SEED = PluginSettings.DEFAULT_MEASURE_SEED;
    /** The system property without which {@link PluginSettings#MEASURE_INJECT_TIME_RATIO} is ignored: it never acts in normal use. */
    public static final String TEST_INJECTOR_PROPERTY = "chiplet.test.effectInjector";

    public MeasureSettings
    {
        requireNonNull(guard, "guard is null");
        requireNonNull(reportDirectory, "reportDirectory is null");
        requireNonNull(seed, "seed is null");
        requireNonNull(injectTimeRatio, "injectTimeRatio is null");
        requireNonNull(design, "design is null");
        requireNonNull(window, "window is null");
        requireNonNull(washout, "washout is null");
        requireNonNull(historyDirectory, "historyDirectory is null");
        requireNonNull(key, "key is null");
        ArmAssignment.blockSize(controlShare);
    }

    /** Task-level arms ({@link MeasureDesign#TASK}) with the default window and washout, no history and no key. */
    public MeasureSettings(boolean enabled, double controlShare, GuardMode guard, Optional<Path> reportDirectory, OptionalLong seed, OptionalDouble injectTimeRatio)
    {
        this(enabled, controlShare, guard, reportDirectory, seed, injectTimeRatio, MeasureDesign.TASK, PluginSettings.DEFAULT_MEASURE_WINDOW,
                PluginSettings.DEFAULT_MEASURE_WASHOUT, Optional.empty(), Optional.empty());
    }

    /**
     * The measurement settings under the engine's keys.
     *
     * @throws InvalidSettingException naming the engine's key of the first setting that is not usable
     */
    public static MeasureSettings read(PluginSettingsReader settings)
    {
        requireNonNull(settings, "settings is null");
        return new MeasureSettings(
                settings.read(PluginSettings.MEASURE_ENABLED),
                settings.read(PluginSettings.MEASURE_CONTROL_SHARE),
                settings.read(PluginSettings.GUARD),
                settings.readIfSet(PluginSettings.MEASURE_REPORT_DIR),
                settings.readIfSet(PluginSettings.MEASURE_SEED).map(OptionalLong::of).orElse(OptionalLong.empty()),
                settings.readIfSet(PluginSettings.MEASURE_INJECT_TIME_RATIO).map(OptionalDouble::of).orElse(OptionalDouble.empty()),
                settings.readOrDefault(PluginSettings.MEASURE_DESIGN),
                settings.read(PluginSettings.MEASURE_WINDOW),
                washout(settings),
                settings.readIfKeyed(PluginSettings.MEASURE_HISTORY_DIR),
                settings.readIfKeyed(PluginSettings.MEASURE_KEY));
    }

    private static Duration washout(PluginSettingsReader settings)
    {
        Duration window = settings.read(PluginSettings.MEASURE_WINDOW);
        Optional<Duration> set = settings.readIfKeyed(PluginSettings.MEASURE_WASHOUT);
        if (set.isEmpty()) {
            // By default at most a tenth of the window: short windows (a trial) keep most of their tasks.
            Duration defaultWashout = PluginSettings.DEFAULT_MEASURE_WASHOUT;
            return defaultWashout.compareTo(window.dividedBy(10)) <= 0 ? defaultWashout : window.dividedBy(10);
        }
        Duration washout = set.get();
        if (washout.compareTo(window) >= 0) {
            throw new InvalidSettingException(settings.keyOf(PluginSettings.MEASURE_WASHOUT), washout.toMillis() + "ms",
                    "a washout shorter than " + settings.keyOf(PluginSettings.MEASURE_WINDOW) + " (" + window.toMillis() + "ms)");
        }
        return washout;
    }

    /** Core's plan for these settings, with {@code seedWhereUnset} where no seed is set; no control share while off. */
    public MeasurementPlan plan(long seedWhereUnset)
    {
        return new MeasurementPlan(enabled, ControlFraction.of(enabled ? controlShare : 0), guard, seed.orElse(seedWhereUnset),
                StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }

    /** Core's plan for these settings, with {@link #DEFAULT_SEED} where no seed is set. */
    public MeasurementPlan plan()
    {
        return plan(DEFAULT_SEED);
    }

    /** The seed in force: the one set, else {@code drawn} (the one the engine drew for this run). */
    public MeasureSettings withSeed(long drawn)
    {
        return seed.isPresent()
                ? this
                : new MeasureSettings(enabled, controlShare, guard, reportDirectory, OptionalLong.of(drawn), injectTimeRatio, design, window, washout, historyDirectory, key);
    }

    /** The host's switchback schedule (core's), for {@link MeasureDesign#WINDOW}. */
    public SwitchbackSchedule schedule()
    {
        return SwitchbackSchedule.of(seed.orElse(DEFAULT_SEED), window.toMillis(), washout.toMillis());
    }

    /** Whether this JVM allows the test-only effect injector: {@code -D}{@value #TEST_INJECTOR_PROPERTY}{@code =true}. */
    public static boolean injectorAllowed()
    {
        return Boolean.getBoolean(TEST_INJECTOR_PROPERTY);
    }

    /** The injected effect where it is set and the JVM allows it; empty in normal use. */
    public Optional<EffectInjector> activeInjector()
    {
        return injectTimeRatio.isPresent() && injectorAllowed() ? Optional.of(new EffectInjector(injectTimeRatio.getAsDouble())) : Optional.empty();
    }
}
