package io.chiplet.measure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MeasureReportTest
{
    @Test
    void theJsonParsesAndCarriesTheFiguresOfTheSummary()
            throws IOException
    {
        Measurement measurement = SimulatedJob.noEffect().withEffect(0.8).run(new MeasurementPlan(true, ControlFraction.of(0.1), GuardMode.AUTO, 1, 20), 1);
        MeasureReport report = MeasureReport.of(measurement, "app \"x\" <1>", "per task, stratified by stage", Noun.regular("task"), Noun.regular("stage"), "2026-11-26T15:00:00Z",
                new PluginCost(2_000_000, 1_000_000_000), List.of("executor mode is not measured"));

        Map<String, String> fields = scalars(report.json());
        assertThat(fields).containsEntry("kind", "chiplet-measure-report/1").containsEntry("subject", "app \"x\" <1>")
                .containsEntry("verdict", "placed faster").containsEntry("placing", "true").containsEntry("share", "0.002");
        double speedUp = Double.parseDouble(fields.get("speedUp"));
        assertThat(speedUp).isEqualTo(measurement.estimate().speedUp().orElseThrow());
        assertThat(Double.parseDouble(fields.get("speedUpLow"))).isLessThan(1.25);
        assertThat(report.summaryLine()).contains("speed-up 1.2").contains("placed faster").contains("plugin CPU 0.200% of the job's")
                .contains("control share 2.5%");
    }

    @Test
    void theHtmlIsSelfContainedWithAnEscapedChart()
    {
        Measurement measurement = SimulatedJob.noEffect().run(MeasurementPlan.defaults(2), 2);
        String html = MeasureReport.of(measurement, "<script>", "per task", Noun.regular("task"), Noun.regular("stage"), "now", PluginCost.none(), List.of("a & b")).html();

        assertThat(html).contains("<svg").contains("</svg>").contains("overall").contains("a &amp; b").contains("&lt;script&gt;")
                .doesNotContain("<script>").doesNotContain("src=").doesNotContain("href=").doesNotContain("@import");
    }

    @Test
    void notEnoughEvidenceSaysSoAndTheGuardStopIsReported()
    {
        Measurement empty = new Measurement(MeasurementPlan.defaults(1));
        assertThat(MeasureReport.of(empty, "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", PluginCost.none(), List.of()).summaryLine())
                .contains("not enough evidence yet (0 placed and 0 control tasks").contains("plugin CPU unknown");
        Measurement harmed = SimulatedJob.noEffect().withEffect(1.25).run(MeasurementPlan.defaults(3), 3);
        MeasureReport report = MeasureReport.of(harmed, "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", PluginCost.none(), List.of());
        assertThat(report.summaryLine()).contains("placed slower").contains("placement stopped");
        assertThat(scalars(report.json())).containsEntry("placing", "false").containsKey("stoppedAtLook");
        assertThat(scalars(report.json())).containsKey("unitsSinceStop");
        MeasureReport queries = MeasureReport.of(harmed, "a", "d", new Noun("query", "queries"), Noun.regular("query shape"), "t", PluginCost.none(), List.of());
        assertThat(queries.summaryLine()).contains("control queries in ").doesNotContain("querys").doesNotContain("shapess");
        assertThat(scalars(queries.json())).containsEntry("unit", "query").containsKey("unitsSinceStop");
    }

    @Test
    void everyFigureSaysTheSmallestEffectItCouldHaveSeen()
    {
        Measurement none = SimulatedJob.noEffect().run(new MeasurementPlan(true, ControlFraction.of(0.1), GuardMode.ALWAYS, 2, 20), 2);
        MeasureReport report = MeasureReport.of(none, "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", PluginCost.none(), List.of());
        ArmEstimate estimate = none.estimate();
        assertThat(estimate.timeRatio().orElseThrow().noiseExplains()).isTrue();
        double detectable = estimate.minimumDetectableEffect().orElseThrow();
        // (t_0.975 + t_0.8) standard errors on the log scale.
        double expected = Math.expm1((NormalQuantile.student(0.975, estimate.degreesOfFreedom()) + NormalQuantile.student(0.8, estimate.degreesOfFreedom()))
                * estimate.logStandardError());
        assertThat(detectable).isCloseTo(expected, org.assertj.core.api.Assertions.within(1e-12)).isGreaterThan(0);
        assertThat(report.summaryLine()).contains(String.format(java.util.Locale.ROOT, "noise explains it; no difference measurable; an effect beyond \u00b1%.1f%% would have shown",
                detectable * 100));
        assertThat(scalars(report.json())).containsKey("minimumDetectableEffect").containsKey("controlClusters");
        assertThat(report.html()).contains("Smallest effect these data could have detected").contains("per task (diagnostic)");

        Measurement gain = SimulatedJob.noEffect().withEffect(0.8).run(new MeasurementPlan(true, ControlFraction.of(0.1), GuardMode.ALWAYS, 1, 20), 1);
        assertThat(MeasureReport.of(gain, "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", PluginCost.none(), List.of()).summaryLine())
                .contains("placed faster; smallest detectable effect \u00b1");
    }

    @Test
    void thePerUnitDiagnosticIsShownWhereItDisagreesWithTheJobsFigure()
    {
        // Placement halves the small tasks' time and doubles the big ones': most tasks faster, the job slower.
        List<UnitObservation> units = new java.util.ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(4);
        for (int i = 0; i < 2000; i++) {
            Arm arm = i % 2 == 0 ? Arm.CONTROL : Arm.PLACED;
            boolean big = i % 10 >= 8;
            double seconds = (big ? 100 : 1) * Math.exp(0.05 * random.nextGaussian()) * (arm == Arm.PLACED ? (big ? 2 : 0.5) : 1);
            units.add(new UnitObservation("stage 0", arm, seconds, 0, 0, 0, 0));
        }
        Measurement measurement = new Measurement(new MeasurementPlan(true, ControlFraction.of(0.5), GuardMode.ALWAYS, 1, 20));
        units.forEach(measurement::record);
        measurement.update();
        ArmEstimate estimate = measurement.estimate();
        assertThat(estimate.placedSlower()).isTrue();
        assertThat(estimate.perUnit().orElseThrow().high()).isLessThan(1);
        assertThat(estimate.perUnitDisagrees()).isTrue();
        MeasureReport report = MeasureReport.of(measurement, "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", PluginCost.none(), List.of());
        assertThat(report.summaryLine()).contains("placed slower").contains("the per-task geometric mean (a diagnostic: every task alike) says")
                .contains("disagrees");
        assertThat(scalars(report.json())).containsEntry("disagrees", "true");
    }

    @Test
    void aHostWithNothingToSeparateSaysSoInsteadOfAFigure()
    {
        MeasureReport report = MeasureReport.notMeasured(MeasurementPlan.defaults(1), "etl (app-1)", "switchback windows per host", Noun.regular("task"),
                Noun.regular("stage"), "t", MeasureReport.ONE_L3_GROUP, PluginCost.none(), List.of());
        assertThat(report.summaryLine()).isEqualTo("Chiplet placement not measured for etl (app-1): this host has one L3 group: placement has nothing to separate, "
                + "not measured; plugin CPU unknown of the job's");
        assertThat(report.verdict()).isEqualTo("not measured");
        assertThat(scalars(report.json())).containsEntry("notMeasured", MeasureReport.ONE_L3_GROUP).containsEntry("enough", "false").doesNotContainKey("speedUp");
        assertThat(report.html()).contains("Not measured: this host has one L3 group");
        assertThatThrownBy(() -> MeasureReport.notMeasured(MeasurementPlan.defaults(1), "a", "d", Noun.regular("task"), Noun.regular("stage"), "t", " ",
                PluginCost.none(), List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    private static Map<String, String> scalars(String json)
    {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser parser = new JsonFactory().createParser(json)) {
            String name = null;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME) {
                    name = parser.currentName();
                }
                else if (token.isScalarValue() && name != null && parser.getParsingContext().getParent() != null) {
                    fields.putIfAbsent(name, parser.getText());
                }
            }
        }
        catch (IOException e) {
            throw new AssertionError("not JSON: " + e.getMessage(), e);
        }
        return fields;
    }
    @Test
    void onOffRoundsShowTheBootstrapFigureInTheSameReportAndAreJudgedByTheSameRule()
    {
        List<Integer> queries = List.of(1, 6, 9);
        // Three rounds; on takes 0.8 of off, each round's pair scattered by a few per cent.
        double[][] scatter = {{1.00, 1.03, 0.98}, {0.97, 1.01, 1.02}, {1.02, 0.99, 1.00}};
        List<Map<Integer, Double>> on = new java.util.ArrayList<>();
        List<Map<Integer, Double>> off = new java.util.ArrayList<>();
        for (int round = 0; round < 3; round++) {
            Map<Integer, Double> onRound = new HashMap<>();
            Map<Integer, Double> offRound = new HashMap<>();
            for (int q = 0; q < 3; q++) {
                offRound.put(queries.get(q), 2.0 + q);
                onRound.put(queries.get(q), (2.0 + q) * 0.8 * scatter[round][q]);
            }
            on.add(onRound);
            off.add(offRound);
        }
        OnOffComparison comparison = new OnOffComparison(queries, on, off);
        RatioEstimate bootstrap = comparison.estimate(PairedBootstrap.standard());
        MeasureReport report = MeasureReport.ofRounds(comparison, PairedBootstrap.standard(), "Spark TPC-H SF 1, bench", "interleaved rounds", "2026-11-26T17:00:00Z", List.of());

        // The same figure and interval as the bench's own estimate, shown as a speed-up, judged as in place.
        assertThat(report.estimate().timeRatio()).contains(bootstrap);
        assertThat(report.estimate().speedUp().orElseThrow()).isEqualTo(1 / bootstrap.ratio());
        assertThat(report.verdict()).isEqualTo("placed faster");
        assertThat(report.summaryLine()).startsWith("Chiplet placement measured on/off for Spark TPC-H SF 1, bench: speed-up ")
                .contains("from 9 placed and 9 control query runs in 3 query texts");
        assertThat(report.estimate().figures()).extracting(StratumFigure::stratum).containsExactly("q1", "q6", "q9");
        assertThat(report.estimate().figures().getFirst().low()).isLessThan(0.8).isGreaterThan(0.7);
        assertThat(report.json()).contains("\"verdict\" : \"placed faster\"", "\"unit\" : \"query run\"");
        assertThat(report.html()).contains("<svg");

        // One round: the interval holds only the spread between queries, so no figure, as the demo says.
        OnOffComparison oneRound = new OnOffComparison(queries, on.subList(0, 1), off.subList(0, 1));
        MeasureReport single = MeasureReport.ofRounds(oneRound, PairedBootstrap.standard(), "demo", "interleaved rounds", "2026-11-26T17:00:00Z", List.of());
        assertThat(single.estimate().enough()).isFalse();
        assertThat(single.verdict()).isEqualTo("not enough evidence yet");
        assertThat(single.summaryLine()).contains("not enough evidence yet (3 placed and 3 control query runs", "6 of each needed");
    }
}
