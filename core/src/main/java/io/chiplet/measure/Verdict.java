package io.chiplet.measure;

/**
 * What an interval of the placed arm's time ratio says, in the words of a report: the same rule for the overall figure
 * ({@link MeasureReport#verdict()}) and a stratum's ({@link StratumFigure#verdict}). Its own type so that a stratum's
 * figure need not reach up into the report that shows it.
 */
enum Verdict
{
    NOT_ENOUGH_EVIDENCE("not enough evidence yet"),
    PLACED_FASTER("placed faster"),
    PLACED_SLOWER("placed slower"),
    NOISE("noise explains it");

    private final String words;

    Verdict(String words)
    {
        this.words = words;
    }

    /** The verdict of an interval with enough units or not, lying wholly below 1 ({@code placedFaster}) or wholly above. */
    static Verdict of(boolean enough, boolean placedFaster, boolean placedSlower)
    {
        if (!enough) {
            return NOT_ENOUGH_EVIDENCE;
        }
        if (placedFaster) {
            return PLACED_FASTER;
        }
        return placedSlower ? PLACED_SLOWER : NOISE;
    }

    String words()
    {
        return words;
    }
}
