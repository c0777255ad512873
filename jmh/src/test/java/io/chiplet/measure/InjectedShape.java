package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: a sealed interface and its records, the allowed shape. */
public sealed interface InjectedShape
        permits InjectedCircle, InjectedSquare
{
    double area();
}
