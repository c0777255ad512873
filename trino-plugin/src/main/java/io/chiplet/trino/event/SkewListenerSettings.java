package io.chiplet.trino.event;

import io.chiplet.placement.SkewRule;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The settings of the {@code chiplet} event listener, read from {@code etc/event-listener.properties} (Trino passes
 * every entry but {@code event-listener.name}).
 */
final class SkewListenerSettings
{
    static final String MAX_OVER_MEDIAN = "chiplet.skew.max-over-median";
    static final String MIN_STAGE_ROWS = "chiplet.skew.min-stage-rows";
    static final String CONSOLIDATE_BELOW_BYTES = "chiplet.skew.consolidate-below-bytes";
    static final Set<String> KEYS = Set.of(MAX_OVER_MEDIAN, MIN_STAGE_ROWS, CONSOLIDATE_BELOW_BYTES);

    private SkewListenerSettings() {}

    /**
     * @throws IllegalArgumentException naming the first setting that is not usable, its value and what was expected
     */
    static SkewRule.Thresholds parse(Map<String, String> config)
    {
        requireNonNull(config, "config is null");
        for (String key : new TreeSet<>(config.keySet())) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("%s is not a setting of the chiplet event listener: expected one of %s".formatted(key, String.join(", ", new TreeSet<>(KEYS))));
            }
        }
        SkewRule.Thresholds defaults = SkewRule.Thresholds.DEFAULT;
        double maxOverMedian = defaults.skewedMaxOverMedian();
        String ratio = config.get(MAX_OVER_MEDIAN);
        if (ratio != null) {
            try {
                maxOverMedian = Double.parseDouble(ratio.trim());
            }
            catch (NumberFormatException e) {
                maxOverMedian = Double.NaN;
            }
            if (!(maxOverMedian > 1) || Double.isInfinite(maxOverMedian)) {
                throw bad(MAX_OVER_MEDIAN, ratio, "a ratio above 1, such as 2.0");
            }
        }
        return new SkewRule.Thresholds(
                maxOverMedian,
                count(config, MIN_STAGE_ROWS, defaults.minStageRows(), "a whole number of rows, 0 or more"),
                count(config, CONSOLIDATE_BELOW_BYTES, defaults.consolidateBelowBytes(), "a whole number of bytes, 0 (never consolidate) or more"));
    }

    private static long count(Map<String, String> config, String key, long defaultValue, String expected)
    {
        String value = config.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed < 0) {
                throw bad(key, value, expected);
            }
            return parsed;
        }
        catch (NumberFormatException e) {
            throw bad(key, value, expected);
        }
    }

    private static IllegalArgumentException bad(String key, String value, String expected)
    {
        return new IllegalArgumentException("%s = '%s' is not usable: expected %s".formatted(key, value, expected));
    }
}
