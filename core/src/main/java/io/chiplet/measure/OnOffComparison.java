package io.chiplet.measure;


import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * The timings of one plugin on/off benchmark: every query's seconds per round, once with the plugin and once
 * without. Each query's time in a table is its median over the rounds (robust to the one slow round a busy machine
 * gives). The overall figure pairs each query's on and off time of the same round and is the {@link PairedBootstrap}
 * geometric mean of those pair ratios with its confidence interval, so that a long query weighs no more than a
 * short one and a slow minute of the machine cancels within its pair. Pure.
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

    /** Per query, its on/off pairs, one per round. */
    public List<List<TimedPair>> pairs()
    {
        return queries.stream()
                .map(query -> IntStream.range(0, rounds()).mapToObj(round -> new TimedPair(on.get(round).get(query), off.get(round).get(query))).toList())
                .toList();
    }

    /** The paired geometric-mean ratio on over off with its bootstrap interval over queries and rounds. */
    public RatioEstimate estimate(PairedBootstrap bootstrap)
    {
        return bootstrap.estimate(pairs());
    }

    private double median(List<Map<Integer, Double>> runs, int query)
    {
        if (!queries.contains(query)) {
            throw new IllegalArgumentException("q" + query + " was not measured; measured " + queries);
        }
        return Median.of(runs.stream().mapToDouble(run -> requireNonNull(run.get(query))).toArray());
    }
}
