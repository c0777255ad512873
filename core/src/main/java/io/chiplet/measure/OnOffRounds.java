package io.chiplet.measure;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Interleaved rounds of a plugin on/off benchmark, in one of two shapes. {@link #run} runs whole sides: each round
 * runs both, one after the other, alternating which goes first so that neither always inherits a warmer (or more
 * fragmented) JVM; a side starts its engine, runs every query once and shuts the engine down before the other side
 * starts, so the two never compete for the CPUs. {@link #runPaired} runs each query on two engines that live through
 * the whole run, back to back, alternating which goes first by round and query: a machine whose speed drifts over
 * minutes (a shared VM) then drifts under both sides of every pair alike. The untimed warm-up before the rounds is
 * the caller's: what it learns (the settings the plugin chose) is engine-specific.
 */
public final class OnOffRounds
{
    /** One side of a round: start the engine with or without the plugin, time every query once, stop it. */
    @FunctionalInterface
    public interface Side
    {
        /** Each query's seconds. */
        Map<Integer, Double> run(boolean plugin)
                throws Exception;
    }

    /** One query on one side's long-lived engine. */
    @FunctionalInterface
    public interface PairedQuery
    {
        /** The query's seconds. */
        double run(boolean plugin, int query)
                throws Exception;
    }

    /**
     * @param peakLoad the highest 1-minute load average sampled after each side, where the OS reports one
     */
    public record Result(OnOffComparison comparison, OptionalDouble peakLoad)
    {
        public Result
        {
            requireNonNull(comparison, "comparison is null");
            requireNonNull(peakLoad, "peakLoad is null");
        }
    }

    private OnOffRounds() {}

    /**
     * @param loadAverage the system's 1-minute load average, negative where unknown (as the JDK's MXBean reports it)
     * @param progress where each side's start is announced
     */
    public static Result run(List<Integer> queries, int rounds, Side side, DoubleSupplier loadAverage, PrintStream progress)
            throws Exception
    {
        requireNonNull(side, "side is null");
        Recording recording = new Recording(queries, rounds, loadAverage, progress);
        for (int round = 0; round < rounds; round++) {
            for (boolean plugin : round % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                progress.printf(Locale.ROOT, "round %d/%d, plugin %s ...%n", round + 1, rounds, plugin ? "on" : "off");
                (plugin ? recording.on : recording.off).add(side.run(plugin));
                recording.sampleLoad();
            }
        }
        return recording.result();
    }

    /**
     * Each round runs every query on both sides back to back; the plugin side goes first where the round and the
     * query's position add up to an even number, so each side goes first for half the pairs of a round and, over two
     * rounds, for every query once.
     *
     * @param loadAverage sampled after each round
     * @param progress where each round's start is announced
     */
    public static Result runPaired(List<Integer> queries, int rounds, PairedQuery query, DoubleSupplier loadAverage, PrintStream progress)
            throws Exception
    {
        requireNonNull(query, "query is null");
        Recording recording = new Recording(queries, rounds, loadAverage, progress);
        for (int round = 0; round < rounds; round++) {
            progress.printf(Locale.ROOT, "round %d/%d, each query plugin on and off ...%n", round + 1, rounds);
            Map<Integer, Double> onSeconds = new LinkedHashMap<>();
            Map<Integer, Double> offSeconds = new LinkedHashMap<>();
            for (int position = 0; position < queries.size(); position++) {
                int number = queries.get(position);
                for (boolean plugin : (round + position) % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                    (plugin ? onSeconds : offSeconds).put(number, query.run(plugin, number));
                }
            }
            recording.on.add(onSeconds);
            recording.off.add(offSeconds);
            recording.sampleLoad();
        }
        return recording.result();
    }

    /** What the rounds measured so far: every round's seconds per side, and the peak load average. */
    private static final class Recording
    {
        private final List<Integer> queries;
        private final DoubleSupplier loadAverage;
        private final List<Map<Integer, Double>> on = new ArrayList<>();
        private final List<Map<Integer, Double>> off = new ArrayList<>();
        private double peakLoad = -1;

        Recording(List<Integer> queries, int rounds, DoubleSupplier loadAverage, PrintStream progress)
        {
            this.queries = requireNonNull(queries, "queries is null");
            this.loadAverage = requireNonNull(loadAverage, "loadAverage is null");
            requireNonNull(progress, "progress is null");
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds must be positive: " + rounds);
            }
        }

        /** Negative loads are the OS saying it has none: the result then has no peak. */
        void sampleLoad()
        {
            peakLoad = Math.max(peakLoad, loadAverage.getAsDouble());
        }

        Result result()
        {
            return new Result(new OnOffComparison(queries, on, off), peakLoad < 0 ? OptionalDouble.empty() : OptionalDouble.of(peakLoad));
        }
    }
}
