package io.chiplet.trino.measure;

import java.util.HashMap;
import java.util.Map;

/**
 * The start of one query's text per shape, for the reader of the lines, table and report; at most {@link #MAX_SHAPES_NAMED}
 * shapes, so a workload of ever new texts does not grow the coordinator's memory. Not thread-safe.
 */
final class QueryTexts
{
    static final int MAX_SHAPES_NAMED = 4096;

    private final Map<String, String> texts = new HashMap<>();

    /** Keeps the shape's first text, while fewer than {@link #MAX_SHAPES_NAMED} shapes are named. */
    void remember(String shape, String text)
    {
        if (texts.size() < MAX_SHAPES_NAMED) {
            texts.putIfAbsent(shape, text);
        }
    }

    /** The shape's text; empty where it was not kept. */
    String of(String shape)
    {
        return texts.getOrDefault(shape, "");
    }
}
