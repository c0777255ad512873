package io.chiplet.perf;

import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * Opens the remote-access signal of one thread of this process, on the machine this JVM runs on (never a topology
 * snapshot: counters describe the live PMU). Reads the machine's PMU description and picks its event catalog once;
 * each {@link #open} is one {@link RemoteAccessRate#open}.
 */
public final class ThreadSignals
{
    private final PerfPlatform platform;
    private final EventCatalog catalog;

    private ThreadSignals(PerfPlatform platform, EventCatalog catalog)
    {
        this.platform = requireNonNull(platform, "platform is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    public static ThreadSignals live()
    {
        PerfPlatform platform = PerfPlatform.read(Path.of("/"));
        return new ThreadSignals(platform, EventCatalog.select(platform));
    }

    /** The hardware signal where this machine allows it, otherwise the software fallback, and why. */
    public RemoteAccessRate.Choice open(int tid)
    {
        return RemoteAccessRate.open(CounterScope.thread(tid), platform, catalog);
    }
}
