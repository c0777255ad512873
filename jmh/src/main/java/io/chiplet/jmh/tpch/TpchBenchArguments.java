package io.chiplet.jmh.tpch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * The command line of the TPC-H plugin on/off benchmarks, the same for every engine:
 *
 * <pre>
 * [--scale-factor SF] [--rounds N] [--forks F] [--queries 1,3,...] [--root DIR] [--no-report]
 * </pre>
 * Each benchmark also takes the scale factor under the name {@code bin/chiplet bench} selects it by
 * ({@code --tpch-sf}, {@code --trino-tpch-sf}), so the launcher passes its arguments on unchanged.
 *
 * @param forks how many times the engines are started afresh for {@code rounds} rounds each (an engine that lives
 *         through several rounds, as the Trino benchmark's servers do, carries its own JIT and heap into every one of
 *         them; fresh engines spread that over the sides)
 * @param root the project root: data and {@code docs/performance.md} are found from it
 * @param report whether to write the section into {@code docs/performance.md}
 */
public record TpchBenchArguments(double scaleFactor, int rounds, int forks, List<Integer> queries, Path root, boolean report)
{
    public static final int QUERY_COUNT = 22;
    public static final double MAX_SCALE_FACTOR = 100;

    public TpchBenchArguments
    {
        requireNonNull(root, "root is null");
        queries = List.copyOf(queries);
        if (!(scaleFactor > 0) || scaleFactor > MAX_SCALE_FACTOR) {
            throw new IllegalArgumentException("--scale-factor: expected a positive number up to 100, got " + scaleFactor);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds: expected at least 1, got " + rounds);
        }
        if (forks < 1) {
            throw new IllegalArgumentException("--forks: expected at least 1, got " + forks);
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("--queries: expected at least one query number");
        }
        for (int query : queries) {
            if (query < 1 || query > QUERY_COUNT) {
                throw new IllegalArgumentException("--queries: expected query numbers 1 to 22, got " + query);
            }
        }
        if (queries.stream().distinct().count() != queries.size()) {
            throw new IllegalArgumentException("--queries: expected each query once, got " + queries);
        }
    }

    /** All 22 queries in order. */
    public static List<Integer> allQueries()
    {
        return IntStream.rangeClosed(1, QUERY_COUNT).boxed().toList();
    }

    /**
     * @param scaleFlag the launcher's name for {@code --scale-factor}, accepted as well
     * @throws IllegalArgumentException naming the option and what it expects
     */
    public static TpchBenchArguments parse(String[] args, String scaleFlag)
    {
        requireNonNull(args, "args is null");
        requireNonNull(scaleFlag, "scaleFlag is null");
        double scaleFactor = 1;
        String scaleName = scaleFlag;
        String scaleText = "1";
        int rounds = 3;
        int forks = 1;
        List<Integer> queries = allQueries();
        Path root = Path.of("");
        boolean report = true;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--no-report")) {
                report = false;
                continue;
            }
            if (!List.of("--scale-factor", scaleFlag, "--rounds", "--forks", "--queries", "--root").contains(flag)) {
                throw new IllegalArgumentException("unknown option " + flag + "; expected " + scaleFlag
                        + " SF (or --scale-factor SF), --rounds N, --forks F, --queries 1,3,..., --root DIR, --no-report");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            try {
                switch (flag) {
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    case "--forks" -> forks = Integer.parseInt(value);
                    case "--queries" -> queries = Arrays.stream(value.split(",")).map(String::trim).map(Integer::parseInt).toList();
                    case "--root" -> root = Path.of(value);
                    default -> {
                        scaleName = flag;
                        scaleText = value;
                        scaleFactor = Double.parseDouble(value);
                    }
                }
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + ": not a number: '" + value + "'");
            }
        }
        if (!(scaleFactor > 0) || scaleFactor > MAX_SCALE_FACTOR) {
            // Named as the user wrote it (bench --tpch-sf 0), not as the constructor knows it.
            throw new IllegalArgumentException(scaleName + " " + scaleText + ": expected a positive number up to " + (int) MAX_SCALE_FACTOR);
        }
        return new TpchBenchArguments(scaleFactor, rounds, forks, queries, root, report);
    }

    /**
     * Checks, before the run, that the report can be written where it goes: a wrong {@code --root} was found only when
     * the run had ended, its figures lost.
     *
     * @throws IllegalArgumentException naming {@code --root} (or the current directory) and what was expected there
     */
    public void requireReportTarget()
    {
        if (!report) {
            return;
        }
        Path file = root.resolve("docs/performance.md");
        if (!Files.isRegularFile(file) || !Files.isWritable(file)) {
            String where = root.toString().isEmpty() ? "the current directory " + root.toAbsolutePath() : "--root " + root;
            throw new IllegalArgumentException(where + ": expected the project root, whose docs/performance.md the report is written into, but "
                    + file + (Files.exists(file) ? " is not a writable file" : " does not exist") + "; pass --root DIR or --no-report");
        }
    }

    /**
     * Checks a command line before anything is built: {@code bin/chiplet bench} runs this file with the JDK's source
     * launcher ({@code java TpchBenchArguments.java --tpch-sf ARGS...}), so a bad value costs a second, not the
     * benchmarks' build, and the one parser here judges it. Exit 0 when {@code parse} accepts the arguments, 2 with one
     * line on stderr when not.
     *
     * @param args the launcher's name for the scale factor, then the arguments
     */
    public static void main(String[] args)
    {
        try {
            parse(Arrays.copyOfRange(args, 1, args.length), args[0]).requireReportTarget();
        }
        catch (IllegalArgumentException e) {
            System.err.println("chiplet bench: " + e.getMessage());
            System.exit(2);
        }
    }

    /** The scale factor as TPC-H writes it: {@code 1}, {@code 0.01}. */
    public String scale()
    {
        return scaleFactor == Math.rint(scaleFactor) ? Long.toString((long) scaleFactor) : Double.toString(scaleFactor);
    }
}
