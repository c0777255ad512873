package io.chiplet.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * The 22 TPC-H queries, read from the {@code io.trino.tpch} jar (Trino's dialect, the specification's substitution
 * parameters), each made one read-only statement (query 15's view becomes a common table expression) and adapted
 * where Spark reads them differently. Every adaptation must find what it rewrites, so a changed query text fails
 * loudly instead of running something else.
 */
public final class TpchQueries
{
    public static final int COUNT = 22;

    /** The SQL dialect a query is written for. */
    public enum Dialect
    {
        TRINO, SPARK
    }

    private record Adaptation(Set<Dialect> dialects, int query, Pattern pattern, String replacement, String why) {}

    private static final List<Adaptation> ADAPTATIONS = List.of(
            new Adaptation(EnumSet.of(Dialect.SPARK), 6, Pattern.compile("(?i)decimal\\s+'([0-9.]+)'"), "$1",
                    "Spark has no DECIMAL typed literal; a plain literal is already decimal"),
            new Adaptation(EnumSet.allOf(Dialect.class), 15, Pattern.compile("(?is)^\\s*CREATE OR REPLACE VIEW (\\w+) AS\\s*(.*?);\\s*(SELECT.*)$"),
                    "WITH $1 AS ($2) $3", "one statement: the view becomes a common table expression"));

    private TpchQueries() {}

    public static List<Integer> numbers()
    {
        return IntStream.rangeClosed(1, COUNT).boxed().toList();
    }

    /** Query {@code number} (1 to 22) as one statement in {@code dialect}. */
    public static String query(int number, Dialect dialect)
    {
        requireNonNull(dialect, "dialect is null");
        String sql = resource("q%d.sql".formatted(number)).lines()
                .filter(line -> !line.stripLeading().startsWith("--"))
                .collect(Collectors.joining("\n"));
        for (Adaptation adaptation : ADAPTATIONS) {
            if (adaptation.query() == number && adaptation.dialects().contains(dialect)) {
                Matcher matcher = adaptation.pattern().matcher(sql);
                if (!matcher.find()) {
                    throw new IllegalStateException("TPC-H q%d no longer has what %s needs adapted (%s): %s".formatted(number, dialect, adaptation.why(), adaptation.pattern()));
                }
                sql = matcher.replaceAll(adaptation.replacement());
            }
        }
        sql = sql.strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        return sql;
    }

    /**
     * The jar's expected result of query {@code number} at scale factor 0.01: one row per line, {@code |}-separated
     * columns (numbers as Trino prints them).
     */
    public static List<List<String>> expectedAtScale001(int number)
    {
        List<String> lines = resource("q%d.result".formatted(number)).lines()
                .filter(line -> !line.startsWith("--") && !line.isBlank())
                .toList();
        return lines.stream()
                .map(line -> List.of((line.endsWith("|") ? line.substring(0, line.length() - 1) : line).split("\\|", -1)))
                .toList();
    }

    private static String resource(String name)
    {
        String path = "io/trino/tpch/queries/" + name;
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = context != null && context.getResource(path) != null ? context : TpchQueries.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no TPC-H resource " + path + " on the class path (it comes with io.trino.tpch:tpch)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
