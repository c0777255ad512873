package io.chiplet.wire;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * One message on the wire: {@value #VERSION}, its kind, then its fields, tab-separated. Written with {@link #writer},
 * read with {@link #parse}; each reading method names the field it reads, so a malformed message fails with the
 * message's kind, the field, what was expected and the (abbreviated) message. Numbers travel in Java's own round-trip
 * form ({@link Long#toString}, {@link Double#toString}): what is decoded is exactly what was encoded.
 */
public final class WireMessage
{
    /** The version field: another version's message is not read (both sides of one application run one plugin jar). */
    public static final String VERSION = "chiplet/2";
    private static final String SEPARATOR = "\t";
    // Starts each text of a list: URL encoding never writes it, and it keeps an empty text apart from an empty list.
    private static final String ITEM = "~";

    private final String kind;
    private final List<String> fields;
    private final String text;

    private WireMessage(String kind, List<String> fields, String text)
    {
        this.kind = kind;
        this.fields = fields;
        this.text = text;
    }

    /** A message of {@code kind}, its fields to be added in order. */
    public static Writer writer(String kind)
    {
        return new Writer(kind);
    }

    /**
     * The message {@code message} carries; fails with a {@link WireFormatException} naming what it got where it is
     * not a string of this format and version.
     */
    public static WireMessage parse(Object message)
    {
        if (!(message instanceof String text)) {
            throw new WireFormatException("not a chiplet plugin message: " + (message == null ? "null" : message.getClass().getName()));
        }
        String[] parts = text.split(SEPARATOR, -1);
        if (parts.length < 2 || !parts[0].equals(VERSION)) {
            throw new WireFormatException("not a " + VERSION + " message: " + abbreviate(text));
        }
        return new WireMessage(parts[1], List.of(parts).subList(2, parts.length), text);
    }

    public String kind()
    {
        return kind;
    }

    /** The number of fields after the kind. */
    public int size()
    {
        return fields.size();
    }

    /** Fails unless the message has exactly {@code names.length} fields, which it names in the error. */
    public WireMessage expect(String... names)
    {
        if (fields.size() != names.length) {
            throw malformed("expected " + names.length + " fields (" + String.join(", ", names) + "), got " + fields.size());
        }
        return this;
    }

    /** A URL-decoded text field. */
    public String text(int index, String name)
    {
        String field = field(index, name);
        try {
            return URLDecoder.decode(field, StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException e) {
            throw malformed(name, "URL-encoded text", field);
        }
    }

    public long number(int index, String name)
    {
        String field = field(index, name);
        try {
            return Long.parseLong(field);
        }
        catch (NumberFormatException e) {
            throw malformed(name, "a whole number", field);
        }
    }

    public int integer(int index, String name)
    {
        long value = number(index, name);
        if (value != (int) value) {
            throw malformed(name, "a whole number within int", Long.toString(value));
        }
        return (int) value;
    }

    /** A share from 0 to 1, exactly as written. */
    public double share(int index, String name)
    {
        return share(field(index, name), name);
    }

    /** One of the fixed words {@code words} maps, as its value. */
    public <T> T word(int index, String name, Map<String, T> words)
    {
        String field = field(index, name);
        T value = words.get(field);
        if (value == null) {
            throw malformed(name, "one of " + words.keySet(), field);
        }
        return value;
    }

    /** Comma-separated whole numbers, as a sorted set. */
    public SortedSet<Integer> ids(int index, String name)
    {
        String field = field(index, name);
        SortedSet<Integer> ids = new TreeSet<>();
        for (String id : items(field)) {
            try {
                ids.add(Integer.parseInt(id));
            }
            catch (NumberFormatException e) {
                throw malformed(name, "comma-separated whole numbers", field);
            }
        }
        return ids;
    }

    /** Comma-separated texts, each {@value #ITEM} and URL-encoded (so that an empty text is one), as a sorted set. */
    public SortedSet<String> texts(int index, String name)
    {
        String field = field(index, name);
        SortedSet<String> texts = new TreeSet<>();
        for (String item : items(field)) {
            try {
                if (!item.startsWith(ITEM)) {
                    throw new IllegalArgumentException();
                }
                texts.add(URLDecoder.decode(item.substring(ITEM.length()), StandardCharsets.UTF_8));
            }
            catch (IllegalArgumentException e) {
                throw malformed(name, "comma-separated texts, each " + ITEM + " and URL-encoded", field);
            }
        }
        return texts;
    }

    /** Comma-separated {@code key:value} whole numbers, in their order. */
    public Map<Integer, Long> entries(int index, String name)
    {
        String field = field(index, name);
        Map<Integer, Long> entries = new LinkedHashMap<>();
        for (String entry : items(field)) {
            int colon = entry.indexOf(':');
            try {
                if (colon < 0 || entries.put(Integer.parseInt(entry.substring(0, colon)), Long.parseLong(entry.substring(colon + 1))) != null) {
                    throw new NumberFormatException();
                }
            }
            catch (NumberFormatException e) {
                throw malformed(name, "comma-separated key:value whole numbers, each key once", field);
            }
        }
        return entries;
    }

    /** A field in a format of its caller's own, to be read with {@link #malformed(String, String, String)} for its errors. */
    public String raw(int index, String name)
    {
        return field(index, name);
    }

    /** The error for a field {@code name} that is not {@code expected}. */
    public WireFormatException malformed(String name, String expected, String got)
    {
        return malformed("field " + name + ": expected " + expected + ", got '" + abbreviate(got) + "'");
    }

    private WireFormatException malformed(String what)
    {
        return new WireFormatException("malformed " + kind + " message (" + what + "): " + abbreviate(text));
    }

    private String field(int index, String name)
    {
        if (index < 0 || index >= fields.size()) {
            throw malformed("no field " + name + ": " + fields.size() + " fields");
        }
        return fields.get(index);
    }

    private double share(String field, String name)
    {
        double value;
        try {
            value = Double.parseDouble(field);
        }
        catch (NumberFormatException e) {
            throw malformed(name, "a share from 0 to 1", field);
        }
        if (!(value >= 0 && value <= 1)) {
            throw malformed(name, "a share from 0 to 1", field);
        }
        return value;
    }

    private static List<String> items(String field)
    {
        return field.isEmpty() ? List.of() : Arrays.asList(field.split(",", -1));
    }

    private static String abbreviate(String text)
    {
        String oneLine = text.replace('\t', ' ');
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 120) + "...";
    }

    /** A share as it travels: Java's shortest round-trip form, so that the reader gets exactly this double. */
    public static String share(double value)
    {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException("expected a share from 0 to 1, got " + value);
        }
        return Double.toString(value);
    }

    /** Builds one message; each method adds one field. */
    public static final class Writer
    {
        private final List<String> fields = new ArrayList<>();

        private Writer(String kind)
        {
            requireNonNull(kind, "kind is null");
            if (kind.isEmpty() || kind.contains(SEPARATOR)) {
                throw new IllegalArgumentException("expected a kind without tabs, got '" + kind + "'");
            }
            fields.add(VERSION);
            fields.add(kind);
        }

        public Writer text(String value)
        {
            fields.add(URLEncoder.encode(requireNonNull(value, "value is null"), StandardCharsets.UTF_8));
            return this;
        }

        public Writer number(long value)
        {
            fields.add(Long.toString(value));
            return this;
        }

        public Writer share(double value)
        {
            fields.add(WireMessage.share(value));
            return this;
        }

        /** A fixed word of the message's vocabulary (no tab, comma or space). */
        public Writer word(String word)
        {
            if (word.isEmpty() || word.chars().anyMatch(c -> c == '\t' || c == ',' || c == ' ')) {
                throw new IllegalArgumentException("expected a word, got '" + word + "'");
            }
            fields.add(word);
            return this;
        }

        public Writer ids(Collection<Integer> ids)
        {
            fields.add(new TreeSet<>(ids).stream().map(String::valueOf).collect(Collectors.joining(",")));
            return this;
        }

        public Writer texts(Collection<String> texts)
        {
            fields.add(new TreeSet<>(texts).stream().map(text -> ITEM + URLEncoder.encode(text, StandardCharsets.UTF_8)).collect(Collectors.joining(",")));
            return this;
        }

        /** {@code key:value} pairs in key order. */
        public Writer entries(Map<Integer, ? extends Number> entries)
        {
            StringBuilder field = new StringBuilder();
            new TreeMap<>(entries).forEach((key, value) -> field.append(field.length() == 0 ? "" : ",").append(key).append(':').append(value.longValue()));
            fields.add(field.toString());
            return this;
        }

        /** A field in a format of the caller's own, which must hold no tab. */
        public Writer raw(String field)
        {
            if (field.contains(SEPARATOR)) {
                throw new IllegalArgumentException("a field holds no tab: '" + field + "'");
            }
            fields.add(field);
            return this;
        }

        public String encode()
        {
            return String.join(SEPARATOR, fields);
        }
    }
}
