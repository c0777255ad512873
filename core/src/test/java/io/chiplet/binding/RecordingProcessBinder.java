package io.chiplet.binding;

import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * A {@link ProcessBinder} for tests: records what it is asked to bind (and, as events, each bind and unbind) and binds
 * nothing. Shared by core's lock tests and the Spark plugin's executor-mode tests (core's test-jar).
 */
public class RecordingProcessBinder
        implements ProcessBinder
{
    private final CpuSet allowed;
    private final List<Map.Entry<CpuSet, OptionalInt>> bound = new ArrayList<>();
    private final List<String> events = new ArrayList<>();
    private int open;

    public RecordingProcessBinder(CpuSet allowed)
    {
        this.allowed = requireNonNull(allowed, "allowed is null");
    }

    @Override
    public CpuSet pinnableCpus()
    {
        return allowed;
    }

    @Override
    public Binding bind(CpuSet cpus, OptionalInt memoryNode)
    {
        bound.add(Map.entry(cpus, memoryNode));
        events.add("bind " + cpus.toList() + " node " + memoryNode);
        open++;
        return new Binding()
        {
            @Override
            public Optional<String> memoryProblem()
            {
                return Optional.empty();
            }

            @Override
            public void close()
            {
                open--;
                events.add("unbind");
            }
        };
    }

    /** Each bind asked for: its CPUs and memory node, in order. */
    public List<Map.Entry<CpuSet, OptionalInt>> bound()
    {
        return List.copyOf(bound);
    }

    /** {@code bind <cpus> node <node>} and {@code unbind}, in the order they happened. */
    public List<String> events()
    {
        return List.copyOf(events);
    }

    /** Bindings made and not yet closed. */
    public int open()
    {
        return open;
    }
}
