package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * A finished unit of work (a Spark task) that is not compared because its arm is ambiguous: it spanned a switch of
 * its host's arm, or started in the washout after one. Its time mixes both arms, so it says nothing about either; but
 * the work it did is part of the job, and {@link StratifiedArmEstimator} counts it in the weight of its stratum's size
 * class, so that work the design leaves out more often (long tasks span switches more often) still counts as much as
 * it weighs in the job.
 *
 * @param stratum the stratum it would have been compared in (the same name as its compared units')
 * @param seconds its wall time, as for {@link UnitObservation#seconds}
 * @param bytesRead what it read, as for {@link UnitObservation#bytesRead}: its size, which placement does not change
 * @param recordsRead the same in records
 */
public record LeftOutUnit(String stratum, double seconds, long bytesRead, long recordsRead)
{
    public LeftOutUnit
    {
        requireNonNull(stratum, "stratum is null");
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("expected a finite time of 0 or more, got " + seconds);
        }
        if (bytesRead < 0 || recordsRead < 0) {
            throw new IllegalArgumentException("expected bytes and records of 0 or more, got %d, %d".formatted(bytesRead, recordsRead));
        }
    }
}
