package io.chiplet.trino.placement;

import io.chiplet.topology.CpuSet;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * What a placement agent did in its latest pass, for the {@code runtime.placement} and {@code runtime.adaptation}
 * tables.
 *
 * @param threads the query threads pinned now, by thread id
 * @param adaptation each thread's spread and signal under the adaptive policy; empty under the others
 * @param stopped why the agent stopped placing, when it did
 * @param placingOn the CPUs threads are placed on now (the node's chiplets within the allowed CPUs); empty when none
 * @param cpusetChanges how many times the process's allowed CPUs changed and the threads were placed anew
 */
public record AgentSnapshot(List<PlacedThread> threads, List<ThreadAdaptation> adaptation, Optional<String> stopped, CpuSet placingOn, long cpusetChanges)
{
    public static final AgentSnapshot EMPTY = new AgentSnapshot(List.of(), List.of(), Optional.empty());

    public AgentSnapshot
    {
        threads = List.copyOf(threads);
        adaptation = List.copyOf(adaptation);
        requireNonNull(stopped, "stopped is null");
        requireNonNull(placingOn, "placingOn is null");
    }

    public AgentSnapshot(List<PlacedThread> threads, List<ThreadAdaptation> adaptation, Optional<String> stopped)
    {
        this(threads, adaptation, stopped, CpuSet.empty(), 0);
    }

    /** A pinned query thread: its kernel name when it was last seen, its chiplet and mask. */
    public record PlacedThread(int tid, String name, OptionalInt chiplet, CpuSet cpus)
    {
        public PlacedThread
        {
            requireNonNull(name, "name is null");
            requireNonNull(chiplet, "chiplet is null");
            requireNonNull(cpus, "cpus is null");
        }
    }

    /**
     * One thread under the adaptive policy.
     *
     * @param remoteAccessRate signal events per adaptive interval in the latest sample; empty before the first
     * @param signalSource {@code HARDWARE}, {@code SOFTWARE_FALLBACK}, or {@code NONE} when no signal could be opened
     */
    public record ThreadAdaptation(int tid, int spread, Optional<Double> remoteAccessRate, String signalSource)
    {
        public ThreadAdaptation
        {
            requireNonNull(remoteAccessRate, "remoteAccessRate is null");
            requireNonNull(signalSource, "signalSource is null");
        }
    }
}
