package io.chiplet.topology;

/**
 * How discovery treats the text of one small kernel file: the value is what precedes the first newline or NUL (a
 * real dump held {@code 0-63\n\0}; what follows the value is never a reason to reject the file), and whatever part of
 * a file an error message shows is escaped onto one line, so a message about a broken file is one readable line.
 */
final class FileText
{
    /** Longest part of a file's text an error message shows; the rest is summarised as a count. */
    private static final int SHOWN_CHARS = 60;

    private FileText() {}

    /** The text up to (not including) the first newline or NUL. */
    static String value(String text)
    {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\0') {
                return text.substring(0, i);
            }
        }
        return text;
    }

    /**
     * {@code text} in double quotes, printable ASCII as is, anything else escaped ({@code \n}, {@code \0},
     * {@code \u0663}), cut after {@value #SHOWN_CHARS} characters with the count of those left out.
     */
    static String quote(String text)
    {
        StringBuilder out = new StringBuilder(Math.min(text.length(), SHOWN_CHARS) + 8).append('"');
        int shown = Math.min(text.length(), SHOWN_CHARS);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\0' -> out.append("\\0");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c >= ' ' && c <= '~') {
                        out.append(c);
                    }
                    else {
                        out.append(String.format("\\u%04x", (int) c));
                    }
                }
            }
        }
        out.append('"');
        if (text.length() > shown) {
            out.append(" (and ").append(text.length() - shown).append(" more characters)");
        }
        return out.toString();
    }
}
