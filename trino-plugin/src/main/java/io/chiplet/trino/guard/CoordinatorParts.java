package io.chiplet.trino.guard;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * How each of the coordinator's parts of the plugin is doing, for the {@code chiplet.runtime.coordinator} table: an
 * operator must see a part that is off without reading the coordinator's log. One instance per plugin; every part
 * starts as {@link #NOT_CONFIGURED} until Trino creates it.
 */
public final class CoordinatorParts
{
    public static final String SESSION_PROPERTY_MANAGER = "session-property-manager";
    public static final String EVENT_LISTENER = "event-listener";
    public static final String WORKER_REPORTS = "worker-reports";
    /** The in-place measurement's listener (issue 23): off when it failed and placement is no longer measured. */
    public static final String MEASUREMENT = "measurement";
    public static final List<String> PARTS = List.of(SESSION_PROPERTY_MANAGER, EVENT_LISTENER, WORKER_REPORTS, MEASUREMENT);

    public static final String ACTIVE = "active";
    public static final String OFF = "off";
    public static final String NOT_CONFIGURED = "not configured";

    /** One part's state and what it is doing or why it is off. */
    public record PartState(String part, String state, String detail)
    {
        public PartState
        {
            requireNonNull(part, "part is null");
            requireNonNull(state, "state is null");
            requireNonNull(detail, "detail is null");
        }
    }

    private final Map<String, PartState> states = new ConcurrentHashMap<>();

    public void report(String part, String state, String detail)
    {
        if (!PARTS.contains(part)) {
            throw new IllegalArgumentException("expected one of " + PARTS + " but was " + part);
        }
        states.put(part, new PartState(part, state, detail));
    }

    /** Every part, in {@link #PARTS} order. */
    public List<PartState> current()
    {
        return PARTS.stream()
                .map(part -> states.getOrDefault(part, new PartState(part, NOT_CONFIGURED, notConfigured(part))))
                .toList();
    }

    private static String notConfigured(String part)
    {
        return switch (part) {
            case SESSION_PROPERTY_MANAGER -> "etc/session-property-config.properties does not name the chiplet manager";
            case EVENT_LISTENER, MEASUREMENT -> "etc/event-listener.properties does not name the chiplet listener";
            default -> "no chiplet catalog on the coordinator collects them";
        };
    }
}
