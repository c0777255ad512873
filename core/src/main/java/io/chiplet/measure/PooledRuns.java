package io.chiplet.measure;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Several runs' figures of one recurring application, pooled so that precision grows across runs ("over the last 14
 * runs of etl-daily: 1.06x [1.03, 1.09]"). Pure: the engine reads the history ({@link RunRecord}) and hands it in.
 *
 * <p><b>Fixed effect.</b> The runs' log time ratios weighted by their inverse variances:
 * {@code y = sum w_i y_i / sum w_i}, {@code w_i = 1 / SE_i^2}, standard error {@code 1 / sqrt(sum w_i)} (widened by
 * {@code sqrt(Q / (k - 1))} where that exceeds 1, as Knapp and Hartung's modified estimator does), Student's t
 * with Satterthwaite's degrees of freedom of that sum ({@code (sum w_i)^2 / sum (w_i^2 / df_i)}: each run's variance is
 * itself estimated from its clusters). It assumes every run estimates <i>one</i> common speed-up (same job, same
 * machines, same kind of data) and that the runs' errors are independent (each run drew its own arms: a seed per
 * application).
 *
 * <p><b>Heterogeneity check.</b> Cochran's {@code Q = sum w_i (y_i - y)^2} against the 95 % quantile of chi-square
 * with {@code k - 1} degrees of freedom (Wilson and Hilferty's approximation), and {@code I^2 = (Q - (k - 1)) / Q}. Where
 * {@code Q} exceeds it, the runs differ by more than their intervals allow (the data, the cluster or the code changed):
 * the common speed-up the fixed effect assumes does not exist, and the report gives the mean over runs with
 * DerSimonian and Laird's random-effects interval (t with {@code k - 1} degrees of freedom) beside it.
 *
 * @param key the recurring application
 * @param runs the runs pooled, oldest first
 */
public record PooledRuns(String key, List<RunRecord> runs)
{
    public PooledRuns
    {
        requireNonNull(key, "key is null");
        runs = runs.stream().sorted(Comparator.comparing(RunRecord::time)).toList();
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("expected at least one run of " + key + " to pool");
        }
        for (RunRecord run : runs) {
            if (!run.key().equals(key)) {
                throw new IllegalArgumentException("run %s is of '%s', not of '%s'".formatted(run.applicationId(), run.key(), key));
            }
        }
    }

    /** The most recent {@code limit} runs of {@code key} among {@code history} (others' runs are skipped). */
    public static PooledRuns lastOf(String key, List<RunRecord> history, int limit)
    {
        if (limit < 1) {
            throw new IllegalArgumentException("expected to pool at least 1 run, got " + limit);
        }
        List<RunRecord> ofKey = history.stream().filter(run -> run.key().equals(key)).sorted(Comparator.comparing(RunRecord::time)).toList();
        return new PooledRuns(key, ofKey.subList(Math.max(0, ofKey.size() - limit), ofKey.size()));
    }

    private double weight(RunRecord run)
    {
        return 1 / (run.logStandardError() * run.logStandardError());
    }

    private double totalWeight()
    {
        return runs.stream().mapToDouble(this::weight).sum();
    }

    /** The fixed-effect pooled log time ratio. */
    public double logTimeRatio()
    {
        return runs.stream().mapToDouble(run -> weight(run) * run.logTimeRatio()).sum() / totalWeight();
    }

    /**
     * {@code 1 / sqrt(sum w_i)}, widened by {@code sqrt(Q / (k - 1))} where the runs scatter more than their own
     * standard errors say (never narrowed): the runs' variances are themselves estimates, and taken as known they made
     * the interval hold the common speed-up in 93.5 % of simulated histories at a stated 95 %.
     */
    public double logStandardError()
    {
        double spread = runs.size() > 1 ? Math.max(1, heterogeneity() / (runs.size() - 1)) : 1;
        return Math.sqrt(spread / totalWeight());
    }

    /** Satterthwaite's degrees of freedom of the pooled variance. */
    public double degreesOfFreedom()
    {
        double total = totalWeight();
        double denominator = runs.stream().mapToDouble(run -> weight(run) * weight(run) / run.degreesOfFreedom()).sum();
        return Math.max(1, total * total / denominator);
    }

    /** The pooled speed-up with its 95 % interval: {low, point, high}. */
    public double[] speedUp()
    {
        double half = NormalQuantile.student(0.975, degreesOfFreedom()) * logStandardError();
        double log = logTimeRatio();
        return new double[] {Math.exp(-log - half), Math.exp(-log), Math.exp(-log + half)};
    }

    /** Cochran's Q. */
    public double heterogeneity()
    {
        double pooled = logTimeRatio();
        return runs.stream().mapToDouble(run -> weight(run) * (run.logTimeRatio() - pooled) * (run.logTimeRatio() - pooled)).sum();
    }

    /** Whether Q exceeds the 95 % quantile of chi-square with {@code k - 1} degrees of freedom; false for one run. */
    public boolean heterogeneous()
    {
        int freedom = runs.size() - 1;
        if (freedom < 1) {
            return false;
        }
        double z = NormalQuantile.of(0.95);
        double term = 2.0 / (9 * freedom);
        double critical = freedom * Math.pow(1 - term + z * Math.sqrt(term), 3);
        return heterogeneity() > critical;
    }

    /** The share of the scatter between runs beyond their own intervals, 0 to 1. */
    public double inconsistency()
    {
        double q = heterogeneity();
        return q > 0 ? Math.max(0, (q - (runs.size() - 1)) / q) : 0;
    }

    /** DerSimonian and Laird's random-effects speed-up with its 95 % interval (t, k - 1 degrees of freedom): {low, point, high}. */
    public double[] randomEffectsSpeedUp()
    {
        double total = totalWeight();
        double squares = runs.stream().mapToDouble(run -> weight(run) * weight(run)).sum();
        double between = runs.size() < 2 ? 0 : Math.max(0, (heterogeneity() - (runs.size() - 1)) / (total - squares / total));
        double sum = 0;
        double weighted = 0;
        for (RunRecord run : runs) {
            double w = 1 / (run.logStandardError() * run.logStandardError() + between);
            sum += w;
            weighted += w * run.logTimeRatio();
        }
        double log = weighted / sum;
        double half = NormalQuantile.student(0.975, Math.max(1, runs.size() - 1)) / Math.sqrt(sum);
        return new double[] {Math.exp(-log - half), Math.exp(-log), Math.exp(-log + half)};
    }

    /** "over the last 14 runs of etl-daily: 1.060x [1.030, 1.090] (...)", with the heterogeneity check's outcome. */
    public String summaryLine()
    {
        double[] fixed = speedUp();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "over the last %d %s of %s: %.3fx [%.3f, %.3f]", runs.size(), runs.size() == 1 ? "run" : "runs",
                key, fixed[1], fixed[0], fixed[2]));
        if (runs.size() == 1) {
            return line.append(" (one run)").toString();
        }
        line.append(" (inverse-variance pooled");
        if (heterogeneous()) {
            double[] random = randomEffectsSpeedUp();
            line.append(String.format(Locale.ROOT, "; the runs differ beyond their intervals, Q %.1f on %d degrees of freedom, I\u00b2 %.0f%%: no common speed-up, "
                    + "the mean over runs is %.3fx [%.3f, %.3f] (random effects))", heterogeneity(), runs.size() - 1, inconsistency() * 100, random[1], random[0], random[2]));
        }
        else {
            line.append(String.format(Locale.ROOT, "; the runs agree within their intervals, Q %.1f on %d degrees of freedom)", heterogeneity(), runs.size() - 1));
        }
        return line.toString();
    }
}
