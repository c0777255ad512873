package io.chiplet.perf;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The input of CHARM's spread controller: how many accesses of the observed thread were served from outside its
 * chiplet during the last interval. Each {@link #sample()} covers the time since the previous one (or since the
 * signal opened). Implementations hold perf descriptors, hence {@link #close()}.
 */
public interface RemoteAccessSignal
        extends AutoCloseable
{
    Sample sample();

    /** What is counted, in words, e.g. the event names summed. */
    String source();

    SignalSource signalSource();

    @Override
    void close();

    /**
     * One interval of the signal.
     *
     * @param source hardware fills or the software fallback; thresholds differ between the two
     * @param intervalNanos wall time the sample covers
     * @param remoteEvents the signal's value for the interval
     * @param components every counted event's delta for the interval, by event name
     */
    record Sample(SignalSource source, long intervalNanos, long remoteEvents, Map<String, Long> components)
    {
        public Sample
        {
            requireNonNull(source, "source is null");
            components = Map.copyOf(requireNonNull(components, "components is null"));
            if (intervalNanos < 0) {
                throw new IllegalArgumentException("interval is negative: " + intervalNanos);
            }
        }

        /**
         * The count normalised to a controller period, as CHARM's {@code rate = counter * SCHEDULER_TIMER /
         * elapsed}; 0 for an empty interval.
         */
        public double ratePer(long periodNanos)
        {
            return intervalNanos == 0 ? 0 : (double) remoteEvents * periodNanos / intervalNanos;
        }

        public double perSecond()
        {
            return ratePer(1_000_000_000L);
        }
    }
}
