package io.chiplet.trino.measure;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.ControlShare;
import io.chiplet.measure.GuardMode;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.StratifiedArmEstimator;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.SettingValues;
import io.chiplet.settings.SettingsReader;
import io.chiplet.settings.UnusableValueException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m)?");
    private static final Duration MIN_WINDOW = Duration.ofMillis(100);

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
        SettingsReader settings = new SettingsReader(properties);
        return new MeasureSettings(
                settings.read(ENABLED, "true", SettingValues::parseBoolean),
                settings.read(CONTROL_SHARE, Double.toString(MeasurementPlan.DEFAULT_CONTROL_SHARE), MeasureSettings::parseShare),
                settings.read(WINDOW, "30s", MeasureSettings::parseWindow),
                settings.read(GUARD, GuardMode.AUTO.configName(),
                        value -> GuardMode.fromConfigName(value).orElseThrow(() -> new UnusableValueException("auto or always"))),
                settings.readIfSet(REPORT_DIR, SettingValues::parsePath),
                settings.readIfSet(SEED, MeasureSettings::parseSeed).map(OptionalLong::of).orElse(OptionalLong.empty()),
                settings.readIfSet(INJECT_TIME_RATIO, MeasureSettings::parseRatio).map(OptionalDouble::of).orElse(OptionalDouble.empty()));
    }

    /** Core's plan for these settings, with {@code drawnSeed} where no seed is set. */
    public MeasurementPlan plan(long drawnSeed)
    {
        return new MeasurementPlan(enabled, ControlShare.of(controlShare), guard, seed.orElse(drawnSeed), StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }

    private static double parseShare(String value)
    {
        String expected = "a control share from 0 to " + ArmAssignment.MAX_CONTROL_SHARE;
        try {
            double share = Double.parseDouble(value);
            if (!(share >= 0 && share <= ArmAssignment.MAX_CONTROL_SHARE)) {
                throw new UnusableValueException(expected);
            }
            return share;
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException(expected);
        }
    }

    private static double parseRatio(String value)
    {
        String expected = "a time ratio of placed over control work between 0.1 and 10 (1.25: placed work takes 25 % longer)";
        try {
            double ratio = Double.parseDouble(value);
            if (!(ratio >= 0.1 && ratio <= 10)) {
                throw new UnusableValueException(expected);
            }
            return ratio;
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException(expected);
        }
    }

    private static long parseSeed(String value)
    {
        try {
            return Long.parseLong(value);
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException("a whole number");
        }
    }

    /** {@code 30s}, {@code 500ms}, {@code 1m}, or a bare number of milliseconds; at least 100 ms. */
    static Duration parseWindow(String value)
    {
        String expected = "a window length such as 30s, 500ms or 1m (a bare number is milliseconds), at least 100ms";
        Matcher matcher = DURATION.matcher(value.toLowerCase(java.util.Locale.ROOT));
        if (!matcher.matches()) {
            throw new UnusableValueException(expected);
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration duration = switch (matcher.group(2) == null ? "ms" : matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofMillis(amount);
        };
        if (duration.compareTo(MIN_WINDOW) < 0) {
            throw new UnusableValueException(expected);
        }
        return duration;
    }
}
