package io.chiplet.cli;

import io.chiplet.cli.AvailabilityListing.EventStatus;
import io.chiplet.cli.CounterSampler.Interval;
import io.chiplet.perf.Availability;
import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.PerfPlatform;

import java.util.List;
import java.util.Optional;

/**
 * Everything {@code chiplet counters} prints, in either format ({@link CountersText}, {@link CountersJson}): the
 * {@link AvailabilityListing} and the intervals {@link CounterSampler} counted.
 *
 * @param probed whether availability was probed on the live kernel (on a snapshot only its settings were read)
 */
record CountersReport(
        boolean probed,
        PerfPlatform platform,
        EventCatalog catalog,
        CounterScope target,
        List<EventStatus> statuses,
        Availability signalHardware,
        Optional<String> signalDescription,
        List<Interval> intervals,
        Optional<String> liveProblem) {}
