package io.chiplet.jmh.report;

import java.util.Map;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * One row of JMH's JSON result: a benchmark method with one combination of parameters.
 *
 * @param benchmark fully qualified, {@code io.chiplet.jmh.workload.StreamBenchmark.triad}
 * @param mode {@code thrpt}, {@code avgt}, {@code sample}, {@code ss}
 * @param scoreError half-width of the 99.9% interval; NaN when JMH had too few samples for one
 * @param secondary secondary metric name (for a group benchmark, each method of the group) to its score
 */
public record JmhResult(
        String benchmark,
        String mode,
        int threads,
        Map<String, String> params,
        double score,
        double scoreError,
        String unit,
        Map<String, Double> secondary)
{
    public JmhResult
    {
        requireNonNull(benchmark, "benchmark is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(unit, "unit is null");
        params = Map.copyOf(params);
        secondary = Map.copyOf(secondary);
    }

    /** The class's simple name: {@code StreamBenchmark}. */
    public String className()
    {
        int method = benchmark.lastIndexOf('.');
        String qualifiedClass = method < 0 ? "" : benchmark.substring(0, method);
        return qualifiedClass.substring(qualifiedClass.lastIndexOf('.') + 1);
    }

    /** The method (or JMH group) name: {@code triad}. */
    public String method()
    {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    public OptionalDouble secondaryScore(String name)
    {
        Double value = secondary.get(name);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
