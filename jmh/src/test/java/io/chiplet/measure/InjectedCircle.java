package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: one record of {@link InjectedShape}. */
public record InjectedCircle(double radius)
        implements InjectedShape
{
    @Override
    public double area()
    {
        return Math.PI * radius * radius;
    }
}
