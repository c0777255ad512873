package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * One finished unit of work (a Spark task, a Trino query) as the engine measured it, with the arm it ran on.
 *
 * @param stratum what it is compared within: like with like (a Spark stage, a Trino query's text fingerprint)
 * @param seconds its wall time (Spark's executor run time): the outcome compared
 * @param cpuSeconds the CPU time the engine counted for it, 0 where unknown
 * @param gcSeconds the garbage collection time within it, 0 where unknown
 * @param bytesRead what the engine says it read: input plus shuffle (exchange) bytes, 0 where none
 * @param recordsRead the same in records
 * @param cluster what the unit's arm was drawn for when not for the unit itself (a Spark executor in executor mode:
 *         all its tasks share its arm), empty when the unit was drawn on its own; units of one cluster are not
 *         independent, and {@link StratifiedArmEstimator} widens the interval for it
 */
public record UnitObservation(String stratum, Arm arm, double seconds, double cpuSeconds, double gcSeconds, long bytesRead, long recordsRead, String cluster)
{
    /** A unit drawn on its own. */
    public UnitObservation(String stratum, Arm arm, double seconds, double cpuSeconds, double gcSeconds, long bytesRead, long recordsRead)
    {
        this(stratum, arm, seconds, cpuSeconds, gcSeconds, bytesRead, recordsRead, "");
    }

    public UnitObservation
    {
        requireNonNull(stratum, "stratum is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(arm, "arm is null");
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("expected a positive finite time, got " + seconds);
        }
        if (!(cpuSeconds >= 0) || !(gcSeconds >= 0) || bytesRead < 0 || recordsRead < 0) {
            throw new IllegalArgumentException("expected CPU and GC seconds, bytes and records of 0 or more, got %s, %s, %d, %d".formatted(cpuSeconds, gcSeconds, bytesRead, recordsRead));
        }
    }
}
