package io.chiplet.trino.placement;

import io.chiplet.affinity.PinnedThread;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.affinity.ThreadId;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.perf.ThreadSignals;
import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The live machine: threads from {@code /proc/self/task/<tid>/comm}, pins through {@link ThreadAffinity} (which
 * checks every CPU against what the kernel lets this process use), signals through {@link RemoteAccessRate}.
 */
public final class LiveThreadControl
        implements ThreadControl
{
    private static final Path TASKS = Path.of("/proc/self/task");

    private final ThreadAffinity affinity;
    private final ThreadSignals signals;

    public LiveThreadControl(ThreadAffinity affinity)
    {
        this.affinity = requireNonNull(affinity, "affinity is null");
        this.signals = ThreadSignals.live();
    }

    @Override
    public List<NativeThread> threads()
    {
        List<NativeThread> threads = new ArrayList<>();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            comm(tid).ifPresent(name -> threads.add(new NativeThread(tid, name)));
        }
        return List.copyOf(threads);
    }

    private static Optional<String> comm(int tid)
    {
        Path file = TASKS.resolve(Integer.toString(tid)).resolve("comm");
        try {
            return Optional.of(Files.readString(file).strip());
        }
        catch (NoSuchFileException e) {
            // Ended between the listing and the read.
            return Optional.empty();
        }
        catch (IOException e) {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public Optional<Restore> pin(int tid, CpuSet cpus)
    {
        PinnedThread pinned;
        try {
            pinned = affinity.pinThread(tid, cpus);
        }
        catch (IllegalArgumentException e) {
            if (!ThreadId.isThreadOfThisProcess(tid)) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(pinned::close);
    }

    @Override
    public RemoteAccessSignal openSignal(int tid)
    {
        return signals.open(tid).signal();
    }
}
