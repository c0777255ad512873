package io.chiplet.engine;

/** How the advice and the engines' logs word a count. */
public final class Wording
{
    private Wording() {}

    /** {@code 1 chiplet}, {@code 2 chiplets}: a count with its noun, singular for one. */
    public static String count(long count, String noun)
    {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
