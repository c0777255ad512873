package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RunHistoryTest
{
    private static RunRecord run(String key, int day, double speedUp, double standardError)
    {
        return new RunRecord(key, "app-" + day, Instant.parse("2026-11-01T02:00:00Z").plusSeconds(86_400L * day), 1000 + day, -Math.log(speedUp), standardError, 40, 30, 30);
    }

    @Test
    void aRecordRoundTripsThroughItsLine()
    {
        RunRecord record = run("etl-daily", 3, 1.06, 0.03);
        String line = record.json();
        assertThat(line).doesNotContain("\n").contains("\"kind\":\"chiplet-measure-run/1\"").contains("\"key\":\"etl-daily\"").contains("\"seed\":1003");
        assertThat(RunRecord.parse(line, "history line 1")).isEqualTo(record);
    }

    @Test
    void aRunWithoutAnEstimateHasNoRecord()
    {
        ArmEstimate none = StratifiedArmEstimator.standard().estimate(List.of());
        assertThat(RunRecord.of("k", "app", Instant.EPOCH, 1, none)).isEmpty();
        Measurement measured = SimulatedJob.noEffect().withEffect(0.8).run(new MeasurementPlan(true, ControlFraction.of(0.1), GuardMode.ALWAYS, 1, 20), 1);
        RunRecord record = RunRecord.of("k", "app", Instant.EPOCH, 1, measured.estimate()).orElseThrow();
        assertThat(record.speedUp()).isCloseTo(measured.estimate().speedUp().orElseThrow(), within(1e-12));
        assertThat(record.controlClusters()).isEqualTo(measured.estimate().controlClusters());
    }

    @Test
    void badLinesAreRefusedWithTheSourceAndWhatWasExpected()
    {
        String good = run("etl", 1, 1.0, 0.05).json();
        assertThatThrownBy(() -> RunRecord.parse("not json", "h.jsonl line 2")).hasMessageStartingWith("h.jsonl line 2: not a chiplet-measure-run/1 record");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("\"seed\":1001,", ""), "h line 3")).hasMessageContaining("missing field 'seed'");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("\"seed\":1001", "\"seed\":\"x\""), "h")).hasMessageContaining("field 'seed': expected a whole number");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("{", "{\"extra\":1,"), "h")).hasMessageContaining("unknown field 'extra'");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("run/1", "run/2"), "h")).hasMessageContaining("expected kind 'chiplet-measure-run/1'");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("2026-11-02T02:00:00Z", "yesterday"), "h")).hasMessageContaining("field 'time': expected an ISO-8601 instant");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("\"logStandardError\":0.05", "\"logStandardError\":-1"), "h"))
                .hasMessageStartingWith("h: ").hasMessageContaining("logStandardError");
        assertThatThrownBy(() -> RunRecord.parse(good + good, "h")).hasMessageContaining("found more after it");
        assertThatThrownBy(() -> RunRecord.parse(good.replace("\"speedUp\":1.0", "\"speedUp\":2.0"), "h")).hasMessageContaining("does not match logTimeRatio");
    }

    @Test
    void agreeingRunsPoolByInverseVariance()
    {
        List<RunRecord> runs = List.of(run("etl-daily", 1, 1.05, 0.04), run("etl-daily", 2, 1.07, 0.02), run("other", 3, 0.5, 0.01), run("etl-daily", 3, 1.06, 0.04));
        PooledRuns pooled = PooledRuns.lastOf("etl-daily", runs, 14);

        assertThat(pooled.runs()).extracting(RunRecord::applicationId).containsExactly("app-1", "app-2", "app-3");
        double w1 = 1 / 0.0016;
        double w2 = 1 / 0.0004;
        double expected = (w1 * Math.log(1.05) + w2 * Math.log(1.07) + w1 * Math.log(1.06)) / (2 * w1 + w2);
        assertThat(pooled.speedUp()[1]).isCloseTo(Math.exp(expected), within(1e-12));
        assertThat(pooled.logStandardError()).isCloseTo(1 / Math.sqrt(2 * w1 + w2), within(1e-12));
        assertThat(pooled.heterogeneous()).isFalse();
        assertThat(pooled.summaryLine()).startsWith("over the last 3 runs of etl-daily: 1.06").contains("the runs agree within their intervals");
        assertThat(PooledRuns.lastOf("etl-daily", runs, 2).runs()).extracting(RunRecord::applicationId).containsExactly("app-2", "app-3");
    }

    @Test
    void runsThatDisagreeAreFlaggedAndGetTheRandomEffectsMean()
    {
        List<RunRecord> runs = List.of(run("etl", 1, 1.20, 0.02), run("etl", 2, 0.95, 0.02), run("etl", 3, 1.10, 0.02), run("etl", 4, 1.00, 0.02));
        PooledRuns pooled = new PooledRuns("etl", runs);

        assertThat(pooled.heterogeneous()).isTrue();
        assertThat(pooled.inconsistency()).isGreaterThan(0.9);
        double[] random = pooled.randomEffectsSpeedUp();
        // The fixed effect's standard error is widened by the runs' scatter beyond their own errors (never narrowed)...
        double known = 1 / Math.sqrt(4 / 0.0004);
        assertThat(pooled.logStandardError()).isGreaterThan(3 * known);
        // ...and the random-effects interval carries the scatter between runs: far wider than 1.96 known errors a side.
        assertThat(Math.log(random[2] / random[0])).isGreaterThan(3 * 2 * 1.96 * known);
        assertThat(pooled.summaryLine()).contains("the runs differ beyond their intervals").contains("random effects");
        assertThatThrownBy(() -> new PooledRuns("etl", List.of(run("other", 1, 1, 0.1)))).hasMessageContaining("is of 'other', not of 'etl'");
    }

    @Test
    void poolingSimulatedRunsCoversTheirCommonSpeedUpAtItsStatedRate()
    {
        // 14 runs of 1.04x, each with its own standard error and 30 degrees of freedom; 2000 seeded histories.
        SplittableRandom random = new SplittableRandom(8);
        int covered = 0;
        int flagged = 0;
        int histories = 2000;
        for (int history = 0; history < histories; history++) {
            List<RunRecord> runs = new ArrayList<>();
            for (int day = 0; day < 14; day++) {
                double error = 0.02 + 0.04 * random.nextDouble();
                // A t-distributed estimate: normal over the root of a chi-square of 30 degrees, as a run's own interval assumes.
                double chi = 0;
                for (int i = 0; i < 30; i++) {
                    double z = random.nextGaussian();
                    chi += z * z;
                }
                double estimatedError = error * Math.sqrt(chi / 30);
                runs.add(new RunRecord("etl", "app-" + day, Instant.EPOCH.plusSeconds(day), day, -Math.log(1.04) + error * random.nextGaussian(), estimatedError, 30, 20, 20));
            }
            PooledRuns pooled = new PooledRuns("etl", runs);
            double[] interval = pooled.speedUp();
            covered += interval[0] <= 1.04 && 1.04 <= interval[2] ? 1 : 0;
            flagged += pooled.heterogeneous() ? 1 : 0;
        }
        System.out.printf(java.util.Locale.ROOT, "pooled 14 runs, 2000 histories: coverage %.1f%%, heterogeneity flagged in %.1f%%%n", 100.0 * covered / histories,
                100.0 * flagged / histories);
        // 95 % stated (binomial s.d. 0.5 points at 2000); the check's false alarms near its 5 %.
        assertThat(covered / (double) histories).isBetween(0.935, 0.975);
        assertThat(flagged / (double) histories).isLessThan(0.10);
    }
}
