package io.chiplet.trino;

import io.trino.tpch.TpchTable;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The 22 TPC-H queries as the {@code io.trino.tpch} jar ships them (Trino's dialect, the specification's
 * substitution parameters). Query 15 creates a view; here it becomes a common table expression so that every query
 * is one read-only statement. jmh's Trino benchmark runs the same texts (through this module's test jar).
 */
public final class TpchQueries
{
    public static final int COUNT = 22;

    private static final Pattern VIEW = Pattern.compile("(?is)^\\s*CREATE OR REPLACE VIEW (\\w+) AS\\s*(.*?);\\s*(SELECT.*)$");

    private TpchQueries() {}

    public static String query(int number)
    {
        String sql = resource("q%d.sql".formatted(number)).lines()
                .filter(line -> !line.stripLeading().startsWith("--"))
                .collect(Collectors.joining("\n"));
        if (number == 15) {
            Matcher matcher = VIEW.matcher(sql);
            if (!matcher.find()) {
                throw new IllegalStateException("TPC-H q15 no longer creates a view; update " + TpchQueries.class.getName());
            }
            sql = matcher.replaceAll("WITH $1 AS ($2) $3");
        }
        sql = sql.strip();
        return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
    }

    private static String resource(String name)
    {
        String path = "io/trino/tpch/queries/" + name;
        try (InputStream in = TpchTable.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no TPC-H resource " + path + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
