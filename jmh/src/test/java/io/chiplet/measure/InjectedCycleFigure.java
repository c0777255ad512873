package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: the lower half of the cycle, reaching up for the report's words. */
public record InjectedCycleFigure(double low, double high)
{
    public String verdict()
    {
        return InjectedCycleReport.words(high < 1);
    }
}
