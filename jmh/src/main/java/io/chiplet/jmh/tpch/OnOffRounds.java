package io.chiplet.jmh.tpch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Interleaved rounds of a plugin on/off benchmark: each round runs both sides, one after the other, alternating which
 * goes first so that neither always inherits a warmer (or more fragmented) JVM. A side starts its engine, runs every
 * query once and shuts the engine down before the other side starts, so the two never compete for the CPUs. The
 * untimed warm-up before the rounds is the caller's: what it learns (the settings the plugin chose) is engine-specific.
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
        requireNonNull(queries, "queries is null");
        requireNonNull(side, "side is null");
        requireNonNull(loadAverage, "loadAverage is null");
        requireNonNull(progress, "progress is null");
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be positive: " + rounds);
        }
        List<Map<Integer, Double>> on = new ArrayList<>();
        List<Map<Integer, Double>> off = new ArrayList<>();
        double peak = -1;
        for (int round = 0; round < rounds; round++) {
            for (boolean plugin : round % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                progress.printf(Locale.ROOT, "round %d/%d, plugin %s ...%n", round + 1, rounds, plugin ? "on" : "off");
                Map<Integer, Double> seconds = side.run(plugin);
                (plugin ? on : off).add(seconds);
                peak = Math.max(peak, loadAverage.getAsDouble());
            }
        }
        return new Result(new OnOffComparison(queries, on, off), peak < 0 ? OptionalDouble.empty() : OptionalDouble.of(peak));
    }
}
