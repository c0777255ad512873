package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: a report whose figure calls back up into it, a class cycle in one package. */
public final class InjectedCycleReport
{
    private InjectedCycleReport() {}

    static String words(boolean faster)
    {
        return faster ? "placed faster" : "noise explains it";
    }

    public static String of(double low, double high)
    {
        return new InjectedCycleFigure(low, high).verdict();
    }
}
