package io.chiplet.trino.skew;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * A query's shape: its text with literals, comments, whitespace and the case of keywords and unquoted names taken out,
 * so that runs of one statement with other values share it. The fingerprint is the first 16 hex digits of the
 * normalised text's SHA-256: short enough for a table column, wide enough that two shapes do not meet by chance.
 */
public final class QueryShape
{
    private QueryShape() {}

    public static String fingerprint(String sql)
    {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(normalise(sql).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * String literals ({@code '...'}, quotes doubled inside) and numbers become {@code ?}; comments go; runs of
     * whitespace become one space; the rest is lower case except quoted identifiers ({@code "..."}), which keep their
     * case as SQL does.
     */
    static String normalise(String sql)
    {
        requireNonNull(sql, "sql is null");
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'') {
                i = skipQuoted(sql, i, '\'');
                out.append('?');
            }
            else if (c == '"') {
                int end = skipQuoted(sql, i, '"');
                out.append(sql, i, end);
                i = end;
            }
            else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
                space(out);
            }
            else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                space(out);
            }
            else if (Character.isWhitespace(c)) {
                while (i < n && Character.isWhitespace(sql.charAt(i))) {
                    i++;
                }
                space(out);
            }
            else if (Character.isDigit(c) && !partOfName(out)) {
                // 42, 3.14, 1e10, and the number of a typed literal's text was already a string.
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.' || sql.charAt(i) == '_')) {
                    i++;
                }
                out.append('?');
            }
            else {
                out.append(Character.toLowerCase(c));
                i++;
            }
        }
        return out.toString().strip();
    }

    /** The index after the quoted text starting at {@code start}, a doubled quote standing for one. */
    private static int skipQuoted(String sql, int start, char quote)
    {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    private static boolean partOfName(StringBuilder out)
    {
        if (out.isEmpty()) {
            return false;
        }
        char last = out.charAt(out.length() - 1);
        return Character.isLetterOrDigit(last) || last == '_';
    }

    private static void space(StringBuilder out)
    {
        if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }
}
