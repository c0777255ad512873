package io.chiplet.trino.placement;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.BoundThread;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.affinity.ThreadId;
import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The live machine: threads from {@code /proc/self/task/<tid>/comm}, binds through core's {@link ThreadBinder} (whose
 * targets check every CPU against what the kernel lets this process use).
 *
 * <p>Each managed thread has one {@link BoundThread}, kept until the thread ends: its first bind reads the
 * mask it had and sets the new one, a move to other CPUs is one call, and its restore gives back the mask of before
 * the first bind. Targets are made once per CPU set. The agent calls from its one thread at a time.
 */
public final class LiveQueryThreadBinder
        implements QueryThreadBinder
{
    private static final Path TASKS = Path.of("/proc/self/task");

    // A few distinct CPU sets (a chiplet's, a group of chiplets'): far more means the placement is not what we think.
    private static final int MAX_TARGETS = 1024;

    private final ThreadBinder binder;
    // Guarded by this: the managed threads' bindings by tid, and the targets made so far by CPU set.
    private final Map<Integer, BoundThread> bindings = new HashMap<>();
    private final Map<CpuSet, PreparedAffinity> targets = new HashMap<>();

    public LiveQueryThreadBinder(ThreadBinder binder)
    {
        this.binder = requireNonNull(binder, "binder is null");
    }

    @Override
    public synchronized List<NativeThread> threads()
    {
        List<NativeThread> threads = new ArrayList<>();
        Set<Integer> alive = new HashSet<>();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            alive.add(tid);
            comm(tid).ifPresent(name -> threads.add(new NativeThread(tid, name)));
        }
        // Ended threads have nothing to restore; their ids may come back as new threads.
        bindings.keySet().retainAll(alive);
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
    public synchronized Optional<Binding> bind(int tid, CpuSet cpus)
    {
        PreparedAffinity target = prepare(cpus);
        BoundThread thread;
        try {
            thread = bindings.get(tid);
            if (thread == null) {
                thread = binder.thread(tid);
                bindings.put(tid, thread);
            }
            if (thread.isBound()) {
                thread.rebind(target);
            }
            else {
                thread.bind(target);
            }
        }
        catch (IllegalArgumentException e) {
            if (!ThreadId.isThreadOfThisProcess(tid)) {
                // Ended since the listing (ESRCH).
                bindings.remove(tid);
                return Optional.empty();
            }
            throw e;
        }
        BoundThread bound = thread;
        return Optional.of(() -> restore(bound));
    }

    @Override
    public synchronized void follow(CpuSet nowAllowed)
    {
        binder.follow(nowAllowed);
        // Made against the CPUs allowed before: made again on their next use.
        targets.clear();
    }

    private synchronized void restore(BoundThread thread)
    {
        thread.restore();
    }

    private PreparedAffinity prepare(CpuSet cpus)
    {
        PreparedAffinity target = targets.get(cpus);
        if (target == null) {
            if (targets.size() >= MAX_TARGETS) {
                targets.clear();
            }
            target = binder.prepare(cpus, Optional.empty());
            targets.put(cpus, target);
        }
        return target;
    }
}
