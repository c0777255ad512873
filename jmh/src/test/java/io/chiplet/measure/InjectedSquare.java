package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: the other record of {@link InjectedShape}. */
public record InjectedSquare(double side)
        implements InjectedShape
{
    @Override
    public double area()
    {
        return side * side;
    }
}
