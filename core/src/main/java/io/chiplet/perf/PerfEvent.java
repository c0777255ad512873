package io.chiplet.perf;

import static java.util.Objects.requireNonNull;

/**
 * One countable event: the {@code perf_event_attr} fields that select it and what it counts.
 *
 * @param name the name {@code perf list} uses, or ours for vendor events that perf names differently per model
 * @param type {@code perf_event_attr.type}: a {@code PERF_TYPE_*} constant or a PMU's dynamic type id
 * @param config {@code perf_event_attr.config}
 * @param config1 {@code perf_event_attr.config1} (Intel OFFCORE_RESPONSE: the response-type MSR value)
 * @param description what one count means
 */
public record PerfEvent(String name, int type, long config, long config1, String description)
{
    public PerfEvent
    {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("event name is blank");
        }
    }

    /** Whether the event counts nanoseconds (the clocks: {@code task-clock}, {@code cpu-clock}) rather than occurrences. */
    public boolean countsNanoseconds()
    {
        return type == PerfEventSyscalls.PERF_TYPE_SOFTWARE
                && (config == PerfEventSyscalls.PERF_COUNT_SW_TASK_CLOCK || config == PerfEventSyscalls.PERF_COUNT_SW_CPU_CLOCK);
    }

    public static PerfEvent software(String name, long config, String description)
    {
        return new PerfEvent(name, PerfEventSyscalls.PERF_TYPE_SOFTWARE, config, 0, description);
    }

    /** True for kernel software events, which every kernel with perf_event has, PMU or not. */
    public boolean isSoftware()
    {
        return type == PerfEventSyscalls.PERF_TYPE_SOFTWARE;
    }

    @Override
    public String toString()
    {
        return name + "{type=" + type + ", config=0x" + Long.toHexString(config)
                + (config1 == 0 ? "" : ", config1=0x" + Long.toHexString(config1)) + "}";
    }
}
