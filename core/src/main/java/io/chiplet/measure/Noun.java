package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * A word a report counts things in, with its plural given, not made: "query" is counted in "queries".
 *
 * @param singular for one ("task", "query")
 * @param plural for several ("tasks", "queries")
 */
public record Noun(String singular, String plural)
{
    public Noun
    {
        requireNonNull(singular, "singular is null");
        requireNonNull(plural, "plural is null");
        if (singular.isBlank() || plural.isBlank()) {
            throw new IllegalArgumentException("expected a word for one and for several, got '%s' and '%s'".formatted(singular, plural));
        }
    }

    /** A noun whose plural adds an s ("task", "stage", "window"). */
    public static Noun regular(String singular)
    {
        return new Noun(singular, singular + "s");
    }

    /** The word for {@code count} of them. */
    public String of(long count)
    {
        return count == 1 ? singular : plural;
    }
}
