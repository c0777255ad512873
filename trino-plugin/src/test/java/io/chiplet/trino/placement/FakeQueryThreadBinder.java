package io.chiplet.trino.placement;

import io.chiplet.perf.FakeRemoteAccessSignal;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.topology.CpuSet;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Threads, masks and signals in memory (a binder that binds CPUs only, as the live one): what a kernel would keep, for driving the agent without one. */
final class FakeQueryThreadBinder
        implements QueryThreadBinder, RemoteAccessSignals
{
    static final CpuSet ORIGINAL = CpuSet.range(0, 15);

    private final Map<Integer, String> threads = new TreeMap<>();
    private final Map<Integer, CpuSet> masks = new HashMap<>();
    private final Map<Integer, Long> remoteEventsPerSample = new HashMap<>();
    private final Set<Integer> refusing = ConcurrentHashMap.newKeySet();
    final Map<Integer, Integer> bindCalls = new LinkedHashMap<>();
    final Set<Integer> openSignals = ConcurrentHashMap.newKeySet();
    final List<CpuSet> followed = new java.util.concurrent.CopyOnWriteArrayList<>();

    synchronized FakeQueryThreadBinder start(int tid, String name)
    {
        threads.put(tid, name);
        masks.put(tid, ORIGINAL);
        return this;
    }

    synchronized void rename(int tid, String name)
    {
        threads.put(tid, name);
    }

    synchronized void end(int tid)
    {
        threads.remove(tid);
        masks.remove(tid);
    }

    /** Pinning {@code tid} fails as a refused syscall would. */
    void refuse(int tid)
    {
        refusing.add(tid);
    }

    synchronized void remoteEvents(int tid, long perSample)
    {
        remoteEventsPerSample.put(tid, perSample);
    }

    synchronized CpuSet mask(int tid)
    {
        return masks.get(tid);
    }

    @Override
    public synchronized List<NativeThread> threads()
    {
        return threads.entrySet().stream().map(entry -> new NativeThread(entry.getKey(), entry.getValue())).toList();
    }

    @Override
    public synchronized Optional<Binding> bind(int tid, CpuSet cpus)
    {
        if (refusing.contains(tid)) {
            throw new IllegalArgumentException("cannot bind thread " + tid + ": not permitted");
        }
        if (!threads.containsKey(tid)) {
            return Optional.empty();
        }
        CpuSet previous = masks.put(tid, cpus);
        bindCalls.merge(tid, 1, Integer::sum);
        return Optional.of(() -> {
            synchronized (this) {
                if (threads.containsKey(tid)) {
                    masks.put(tid, previous);
                }
            }
        });
    }

    @Override
    public void follow(CpuSet nowAllowed)
    {
        followed.add(nowAllowed);
    }

    @Override
    public RemoteAccessSignal open(int tid)
    {
        openSignals.add(tid);
        return new FakeRemoteAccessSignal(500_000_000L, () -> {
            synchronized (FakeQueryThreadBinder.this) {
                return remoteEventsPerSample.getOrDefault(tid, 0L);
            }
        }, () -> openSignals.remove(tid));
    }
}
