package io.chiplet.measure;

/** Injected for {@code InjectedViolationsTest}: the implementation {@link InjectedCalls#forPath()} picks. */
public final class InjectedJnaCalls
        implements InjectedCalls
{
    @Override
    public int gettid()
    {
        return 1;
    }
}
