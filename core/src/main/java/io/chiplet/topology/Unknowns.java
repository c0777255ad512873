package io.chiplet.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one discovery could not tell, one sentence each ({@link Topology#unknowns()}), and what a broken optional
 * fact becomes: unknown, with the file and the reason, when discovery degrades; the {@link TopologyException} itself
 * when the caller must not guess ({@link #strict()}: the check before every pin).
 */
final class Unknowns
{
    private final boolean strict;
    private final List<String> sentences = new ArrayList<>();

    private Unknowns(boolean strict)
    {
        this.strict = strict;
    }

    /** Broken optional facts become unknown. */
    static Unknowns degrading()
    {
        return new Unknowns(false);
    }

    /** Broken optional facts are errors. */
    static Unknowns strict()
    {
        return new Unknowns(true);
    }

    void add(String sentence)
    {
        sentences.add(sentence);
    }

    void addAll(List<String> more)
    {
        sentences.addAll(more);
    }

    /**
     * Reads an optional fact; when its files are broken, the fact becomes unknown (with the file and why) instead
     * of stopping discovery, unless this is {@link #strict()}.
     */
    <T> Optional<T> degrade(String what, Supplier<T> read)
    {
        try {
            return Optional.of(read.get());
        }
        catch (TopologyException e) {
            if (strict) {
                throw e;
            }
            sentences.add(what + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    List<String> list()
    {
        return List.copyOf(sentences);
    }
}
