package io.chiplet.measure;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One speed-up over several runs of a recurring application (the same job run daily, each run measured in place):
 * the runs' log speed-ups weighted by their inverse variance (a fixed-effect pooled estimate), with a Student-t
 * interval whose degrees of freedom follow Welch-Satterthwaite over the runs' own.
 *
 * <p>What it estimates: the speed-up common to the runs. What it assumes: the runs are independent and share one true
 * speed-up, each run's interval being right for its own. Where the true speed-up differs between runs (other data,
 * other machines) the interval is too narrow for the spread between them: the page shows each run's interval beside
 * the pooled one, so a reader sees runs that disagree. Coverage on simulated runs whose task times are not normal is
 * checked in {@code PooledRunsTest}.
 *
 * @param runs the runs pooled (those with a figure)
 */
public record PooledRuns(int runs, double speedUp, double speedUpLow, double speedUpHigh, double degreesOfFreedom, double confidence)
{
    /**
     * One run's figure, as its report's JSON gives it.
     *
     * @param logStandardError the standard error of the log speed-up (the report's {@code logStandardError})
     */
    public record Run(double speedUp, double logStandardError, double degreesOfFreedom)
    {
        boolean usable()
        {
            return speedUp > 0 && Double.isFinite(speedUp) && logStandardError > 0 && Double.isFinite(logStandardError) && degreesOfFreedom > 0;
        }
    }

    /** The pooled figure of the usable runs; empty where none has a figure. */
    public static Optional<PooledRuns> of(List<Run> runs, double confidence)
    {
        requireNonNull(runs, "runs is null");
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1: " + confidence);
        }
        List<Run> usable = runs.stream().filter(Run::usable).toList();
        if (usable.isEmpty()) {
            return Optional.empty();
        }
        double totalWeight = 0;
        double weighted = 0;
        for (Run run : usable) {
            double weight = 1 / (run.logStandardError() * run.logStandardError());
            totalWeight += weight;
            weighted += weight * Math.log(run.speedUp());
        }
        double logSpeedUp = weighted / totalWeight;
        double standardError = Math.sqrt(1 / totalWeight);
        // Welch-Satterthwaite: each run's share of the pooled variance, over its own degrees of freedom.
        double inverseFreedom = 0;
        for (Run run : usable) {
            double share = 1 / (run.logStandardError() * run.logStandardError()) / totalWeight;
            inverseFreedom += share * share / run.degreesOfFreedom();
        }
        double freedom = Math.max(1, 1 / inverseFreedom);
        double t = NormalQuantile.student(1 - (1 - confidence) / 2, freedom);
        return Optional.of(new PooledRuns(usable.size(), Math.exp(logSpeedUp), Math.exp(logSpeedUp - t * standardError), Math.exp(logSpeedUp + t * standardError),
                freedom, confidence));
    }
}
