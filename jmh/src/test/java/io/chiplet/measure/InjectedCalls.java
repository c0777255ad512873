package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: an interface whose static factory picks its implementation, the allowed shape. */
public interface InjectedCalls
{
    int gettid();

    static InjectedCalls forPath()
    {
        return new InjectedJnaCalls();
    }
}
