package io.chiplet.perf;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** Whether an event can be counted here, and if not, exactly why. */
public record Availability(Optional<String> unavailableReason)
{
    private static final Availability AVAILABLE = new Availability(Optional.empty());

    public Availability
    {
        requireNonNull(unavailableReason, "unavailableReason is null");
    }

    public static Availability available()
    {
        return AVAILABLE;
    }

    public static Availability unavailable(String reason)
    {
        return new Availability(Optional.of(reason));
    }

    public boolean isAvailable()
    {
        return unavailableReason.isEmpty();
    }

    /** {@code available}, or {@code unavailable: <reason>}. */
    @Override
    public String toString()
    {
        return unavailableReason.map(reason -> "unavailable: " + reason).orElse("available");
    }
}
