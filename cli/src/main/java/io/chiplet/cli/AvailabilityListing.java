package io.chiplet.cli;

import io.chiplet.perf.Availability;
import io.chiplet.perf.CounterAvailability;
import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.FillSourceEvent;
import io.chiplet.perf.PerfEvent;
import io.chiplet.perf.PerfPlatform;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code chiplet counters} gathers before it counts anything: each event of the CPU's catalog (software,
 * hardware, fill-source, in that order) with whether it can be counted here and why not, and whether the hardware
 * remote-access signal can be.
 */
record AvailabilityListing(List<EventStatus> statuses, Availability signalHardware)
{
    /** One event's line of the listing. */
    record EventStatus(String group, PerfEvent event, Availability availability) {}

    AvailabilityListing
    {
        statuses = List.copyOf(statuses);
    }

    static AvailabilityListing gather(EventCatalog catalog, CounterScope target, PerfPlatform platform, CounterAvailability.Probe probe)
    {
        List<EventStatus> statuses = new ArrayList<>();
        for (PerfEvent event : catalog.software()) {
            statuses.add(new EventStatus("software", event, CounterAvailability.assess(event, target, platform, probe)));
        }
        for (PerfEvent event : catalog.hardware()) {
            statuses.add(new EventStatus("hardware", event, CounterAvailability.assess(event, target, platform, probe)));
        }
        for (FillSourceEvent fill : catalog.fillSources()) {
            statuses.add(new EventStatus("fill-source", fill.event(), CounterAvailability.assess(fill.event(), target, platform, probe)));
        }
        return new AvailabilityListing(statuses, CounterAvailability.assessFillSources(catalog, target, platform, probe));
    }
}
