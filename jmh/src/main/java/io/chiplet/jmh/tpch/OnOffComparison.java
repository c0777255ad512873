package io.chiplet.jmh.tpch;

import io.chiplet.jmh.report.Median;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The timings of one plugin on/off benchmark: every query's seconds per round, once with the plugin and once
 * without. Each query's time is its median over the rounds (robust to the one slow round a busy machine gives),
 * its ratio that median on over that median off, and the overall figure the geometric mean of the per-query
 * ratios, so that a long query weighs no more than a short one. Pure.
 *
 * @param on per round, every query's seconds with the plugin
 * @param off per round, every query's seconds without it
 */
public record OnOffComparison(List<Integer> queries, List<Map<Integer, Double>> on, List<Map<Integer, Double>> off)
{
    public OnOffComparison
    {
        queries = List.copyOf(queries);
        on = on.stream().map(Map::copyOf).toList();
        off = off.stream().map(Map::copyOf).toList();
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("expected at least one query");
        }
        if (on.isEmpty() || on.size() != off.size()) {
            throw new IllegalArgumentException("expected as many rounds on as off, at least one, but got " + on.size() + " on and " + off.size() + " off");
        }
        for (int round = 0; round < on.size(); round++) {
            check(on.get(round), queries, round, "on");
            check(off.get(round), queries, round, "off");
        }
    }

    private static void check(Map<Integer, Double> seconds, List<Integer> queries, int round, String side)
    {
        for (int query : queries) {
            Double value = seconds.get(query);
            if (value == null || !(value > 0) || value.isInfinite()) {
                throw new IllegalArgumentException("round %d, plugin %s: expected a positive time for q%d, got %s".formatted(round + 1, side, query, value));
            }
        }
    }

    public int rounds()
    {
        return on.size();
    }

    public double medianOn(int query)
    {
        return median(on, query);
    }

    public double medianOff(int query)
    {
        return median(off, query);
    }

    /** Median on over median off: below 1 the plugin was faster. */
    public double ratio(int query)
    {
        return medianOn(query) / medianOff(query);
    }

    public double geometricMean()
    {
        return Math.exp(queries.stream().mapToDouble(query -> Math.log(ratio(query))).average().orElseThrow());
    }

    private double median(List<Map<Integer, Double>> runs, int query)
    {
        if (!queries.contains(query)) {
            throw new IllegalArgumentException("q" + query + " was not measured; measured " + queries);
        }
        return Median.of(runs.stream().mapToDouble(run -> requireNonNull(run.get(query))).toArray());
    }
}
