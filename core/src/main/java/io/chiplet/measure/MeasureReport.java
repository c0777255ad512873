package io.chiplet.measure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a run's in-place comparison says, in the three forms users read: one summary line (the WARN line at the end
 * of an application), a self-contained JSON document, and a small HTML page with a chart (inline SVG, nothing
 * fetched). Pure: the caller writes the text where it wants.
 *
 * @param subject what was measured: an application's name and id, a query fingerprint
 * @param design how arms were drawn, in words ("per task, stratified by stage")
 * @param unit what the comparison counts ("task", "window")
 * @param stratum what it compares within ("stage", "query shape")
 * @param generatedAt when the report was made, as the engine's clock said it (ISO-8601)
 * @param notes what the reader should know besides the figures (modes not measured, assumptions in force)
 * @param notMeasured why nothing was measured, where the engine decided there is nothing to measure (a host with one
 *         L3 group: placement has nothing to separate); empty for a measured run
 */
public record MeasureReport(String subject, String design, Noun unit, Noun stratum, String generatedAt, MeasurementPlan plan, ArmEstimate estimate,
        PlacementGuard guard, Directive directive, PluginCost cost, long unitsAfterStop, List<String> notes, Optional<String> notMeasured)
{
    /** The reason an engine gives where every host has one L3 group, for {@link #notMeasured}. */
    public static final String ONE_L3_GROUP = "this host has one L3 group: placement has nothing to separate, not measured";

    private static final JsonFactory JSON = new JsonFactory();
    private static final int CHART_ROWS = 30;
    /** The unit of {@link #ofRounds}: one query's run on one side of one round. */
    static final Noun ROUNDS_UNIT = Noun.regular("query run");

    public MeasureReport
    {
        requireNonNull(subject, "subject is null");
        requireNonNull(design, "design is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(stratum, "stratum is null");
        requireNonNull(generatedAt, "generatedAt is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(estimate, "estimate is null");
        requireNonNull(guard, "guard is null");
        requireNonNull(directive, "directive is null");
        requireNonNull(cost, "cost is null");
        requireNonNull(notMeasured, "notMeasured is null");
        notes = List.copyOf(notes);
    }

    /**
     * A report that measured nothing because the engine found nothing to measure ({@link #ONE_L3_GROUP}, or a reason
     * of its own): a state, not a figure. Its line says why; its JSON has {@code notMeasured} and no estimate.
     */
    public static MeasureReport notMeasured(MeasurementPlan plan, String subject, String design, Noun unit, Noun stratum, String generatedAt, String reason,
            PluginCost cost, List<String> notes)
    {
        requireNonNull(reason, "reason is null");
        if (reason.isBlank()) {
            throw new IllegalArgumentException("expected a reason why nothing was measured");
        }
        return new MeasureReport(subject, design, unit, stratum, generatedAt, plan, plan.estimator().estimate(List.of()), PlacementGuard.start(plan.guard()),
                new Directive(0, true), cost, 0, notes, Optional.of(reason));
    }

    /** A report of {@code measurement} as it stands. */
    public static MeasureReport of(Measurement measurement, String subject, String design, Noun unit, Noun stratum, String generatedAt, PluginCost cost,
            List<String> notes)
    {
        return new MeasureReport(subject, design, unit, stratum, generatedAt, measurement.plan(), measurement.estimate(), measurement.guard(),
                measurement.directive(), cost, measurement.unitsAfterStop(), notes, Optional.empty());
    }

    /**
     * A report of interleaved on/off rounds ({@code chiplet bench}, the demo) in the same form as an in-place run's,
     * judged by the same rule: the overall figure is the paired bootstrap estimate ({@link OnOffComparison#estimate}):
     * each round's on and off run of a query form a pair, so the run is "placed" units (on) against "control" units
     * (off) at a share of a half, strata are the queries, and each query's figure is the geometric mean of its pair
     * ratios with a Student's t interval over its rounds. One round is "not enough evidence yet": its interval holds
     * only the spread between queries, not the order the sides ran in ({@link RatioEstimate#oneRound()}). The
     * standard error shown is read from the bootstrap interval's width; the plugin's CPU is not read (unknown).
     *
     * @param subject what was run ("Spark TPC-H SF 1, bench")
     */
    public static MeasureReport ofRounds(OnOffComparison comparison, PairedBootstrap bootstrap, String subject, String design, String generatedAt, List<String> notes)
    {
        requireNonNull(comparison, "comparison is null");
        requireNonNull(bootstrap, "bootstrap is null");
        RatioEstimate ratio = comparison.estimate(bootstrap);
        int queries = comparison.queries().size();
        int runs = ratio.pairs();
        // Two rounds' worth of each side before a figure: one round cannot separate the plugin from the order the sides ran in.
        int needed = Math.max(2, 2 * queries);
        List<StratumFigure> figures = new java.util.ArrayList<>();
        List<List<TimedPair>> pairs = comparison.pairs();
        for (int q = 0; q < queries; q++) {
            double[] logs = pairs.get(q).stream().mapToDouble(pair -> Math.log(pair.with() / pair.without())).toArray();
            double mean = java.util.Arrays.stream(logs).average().orElseThrow();
            double half = 0;
            if (logs.length > 1) {
                double squares = java.util.Arrays.stream(logs).map(log -> (log - mean) * (log - mean)).sum();
                half = NormalQuantile.student(1 - (1 - ratio.confidence()) / 2, logs.length - 1) * Math.sqrt(squares / (logs.length - 1) / logs.length);
            }
            figures.add(new StratumFigure("q" + comparison.queries().get(q), logs.length, logs.length, "paired rounds", Math.exp(mean), Math.exp(mean - half),
                    Math.exp(mean + half), 1.0 / queries));
        }
        double z = NormalQuantile.of(1 - (1 - ratio.confidence()) / 2);
        ArmEstimate estimate = ratio.oneRound()
                ? new ArmEstimate(Optional.empty(), 0, 0, runs, runs, queries, 0, needed, figures)
                : new ArmEstimate(Optional.of(ratio), Math.log(ratio.high() / ratio.low()) / (2 * z), runs - 1, runs, runs, queries, 0, needed, figures);
        MeasurementPlan plan = new MeasurementPlan(true, new ControlFraction(ArmAssignment.MAX_CONTROL_SHARE, ArmAssignment.MAX_CONTROL_SHARE, 0.02), GuardMode.ALWAYS,
                bootstrap.seed(), needed);
        return new MeasureReport(subject, design, ROUNDS_UNIT, Noun.regular("query text"), generatedAt, plan, estimate, PlacementGuard.start(GuardMode.ALWAYS),
                new Directive(ArmAssignment.MAX_CONTROL_SHARE, true), PluginCost.none(), 0, notes, Optional.empty());
    }

    /** The one line: the speed-up with its interval and what it rests on, the plugin's CPU share, the guard. */
    public String summaryLine()
    {
        if (notMeasured.isPresent()) {
            return "Chiplet placement not measured for " + subject + ": " + notMeasured.get() + "; plugin CPU "
                    + (cost.share().isPresent() ? String.format(Locale.ROOT, "%.3f%%", cost.share().getAsDouble() * 100) : "unknown") + " of the job's";
        }
        StringBuilder line = new StringBuilder("Chiplet placement measured ").append(ROUNDS_UNIT.equals(unit) ? "on/off" : "in place").append(" for ")
                .append(subject).append(": ");
        if (!plan.enabled()) {
            line.append("measuring is off");
        }
        else if (estimate.enough()) {
            RatioEstimate ratio = estimate.timeRatio().orElseThrow();
            line.append(String.format(Locale.ROOT, "speed-up %.3fx (%.0f%% CI %.3f-%.3f, %s%s) from %d placed and %d control %s in %d %s",
                    estimate.speedUp().orElseThrow(), ratio.confidence() * 100, estimate.speedUpLow().orElseThrow(), estimate.speedUpHigh().orElseThrow(),
                    verdict(), detectable(), estimate.placedUnits(), estimate.controlUnits(), unit.plural(), estimate.strataCompared(),
                    stratum.of(estimate.strataCompared())));
            if (estimate.placedClusters() != estimate.placedUnits() || estimate.controlClusters() != estimate.controlUnits()) {
                line.append(String.format(Locale.ROOT, " (%d and %d clusters)", estimate.placedClusters(), estimate.controlClusters()));
            }
            if (estimate.perUnitDisagrees()) {
                RatioEstimate perUnit = estimate.perUnit().orElseThrow();
                line.append(String.format(Locale.ROOT, "; the per-%s geometric mean (a diagnostic: every %s alike) says %.3fx (%.3f-%.3f) and disagrees: the effect "
                        + "differs with the %s' size, and the job's figure is the one that counts", unit.singular(), unit.singular(), 1 / perUnit.ratio(),
                        1 / perUnit.high(), 1 / perUnit.low(), unit.plural()));
            }
        }
        else {
            line.append(String.format(Locale.ROOT, "not enough evidence yet (%d placed and %d control %s in %s with both arms; %d of each needed)",
                    estimate.placedUnits(), estimate.controlUnits(), unit.plural(), stratum.plural(), estimate.minUnitsPerArm()));
        }
        if (estimate.unitsLeftOut() > 0) {
            line.append(String.format(Locale.ROOT, ", %d %s left out (their %s had too few of one arm)", estimate.unitsLeftOut(), unit.of(estimate.unitsLeftOut()), stratum.singular()));
        }
        line.append("; plugin CPU ").append(cost.share().isPresent() ? String.format(Locale.ROOT, "%.3f%%", cost.share().getAsDouble() * 100) : "unknown")
                .append(" of the job's");
        line.append("; guard ").append(guard.mode().configName()).append(": ");
        if (guard.placing()) {
            line.append(String.format(Locale.ROOT, "placing, control share %.1f%%", directive.controlShare() * 100));
        }
        else {
            line.append(String.format(Locale.ROOT, "placement stopped (placed work slower), %d %s since ran unplaced", unitsAfterStop, unit.of(unitsAfterStop)));
        }
        return line.toString();
    }

    /**
     * Beside the verdict, the smallest effect the data could have detected ({@link ArmEstimate#minimumDetectableEffect}):
     * "; no difference measurable; an effect beyond +-6.0% would have shown" where noise explains the figure.
     */
    private String detectable()
    {
        Optional<Double> effect = estimate.minimumDetectableEffect();
        if (effect.isEmpty()) {
            return "";
        }
        String percent = String.format(Locale.ROOT, "\u00b1%.1f%%", effect.get() * 100);
        return estimate.placedFaster() || estimate.placedSlower() ? "; smallest detectable effect " + percent
                : "; no difference measurable; an effect beyond " + percent + " would have shown";
    }

    /** In words: what the interval says. */
    public String verdict()
    {
        if (notMeasured.isPresent()) {
            return "not measured";
        }
        return Verdict.of(estimate.enough(), estimate.placedFaster(), estimate.placedSlower()).words();
    }

    public String json()
    {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("kind", "chiplet-measure-report/1");
            json.writeStringField("subject", subject);
            json.writeStringField("generatedAt", generatedAt);
            json.writeStringField("design", design);
            json.writeStringField("unit", unit.singular());
            json.writeStringField("stratum", stratum.singular());
            json.writeObjectFieldStart("plan");
            json.writeBooleanField("enabled", plan.enabled());
            json.writeNumberField("controlShare", plan.controlShare().wide());
            json.writeNumberField("residualControlShare", plan.controlShare().residual());
            json.writeStringField("guard", plan.guard().configName());
            json.writeNumberField("seed", plan.seed());
            json.writeNumberField("minUnitsPerArm", plan.minUnitsPerArm());
            json.writeEndObject();
            if (notMeasured.isPresent()) {
                json.writeStringField("notMeasured", notMeasured.get());
            }
            json.writeObjectFieldStart("estimate");
            json.writeStringField("estimand", ROUNDS_UNIT.equals(unit) ? "geometric mean of paired on/off time ratios"
                    : "the job's time ratio: placed over control time for the work done, per stratum a ratio of totals, strata weighted by their time");
            json.writeBooleanField("enough", estimate.enough());
            json.writeStringField("verdict", verdict());
            if (estimate.enough()) {
                RatioEstimate ratio = estimate.timeRatio().orElseThrow();
                json.writeNumberField("speedUp", estimate.speedUp().orElseThrow());
                json.writeNumberField("speedUpLow", estimate.speedUpLow().orElseThrow());
                json.writeNumberField("speedUpHigh", estimate.speedUpHigh().orElseThrow());
                json.writeNumberField("timeRatio", ratio.ratio());
                json.writeNumberField("timeRatioLow", ratio.low());
                json.writeNumberField("timeRatioHigh", ratio.high());
                json.writeNumberField("confidence", ratio.confidence());
                json.writeNumberField("unitSpread", ratio.pairSpread());
                json.writeNumberField("logStandardError", estimate.logStandardError());
                json.writeNumberField("degreesOfFreedom", estimate.degreesOfFreedom());
                if (estimate.minimumDetectableEffect().isPresent()) {
                    json.writeNumberField("minimumDetectableEffect", estimate.minimumDetectableEffect().get());
                    json.writeNumberField("minimumDetectableEffectPower", ArmEstimate.DETECTION_POWER);
                }
                if (estimate.perUnit().isPresent()) {
                    RatioEstimate perUnit = estimate.perUnit().get();
                    json.writeObjectFieldStart("perUnitDiagnostic");
                    json.writeStringField("what", "a diagnostic, not the estimate: the stratified geometric mean of per-unit cost ratios, every unit alike");
                    json.writeNumberField("speedUp", 1 / perUnit.ratio());
                    json.writeNumberField("speedUpLow", 1 / perUnit.high());
                    json.writeNumberField("speedUpHigh", 1 / perUnit.low());
                    json.writeBooleanField("disagrees", estimate.perUnitDisagrees());
                    json.writeEndObject();
                }
            }
            json.writeNumberField("placedUnits", estimate.placedUnits());
            json.writeNumberField("controlUnits", estimate.controlUnits());
            json.writeNumberField("placedClusters", estimate.placedClusters());
            json.writeNumberField("controlClusters", estimate.controlClusters());
            json.writeNumberField("strata", estimate.strata());
            json.writeNumberField("strataCompared", estimate.strataCompared());
            json.writeNumberField("unitsLeftOut", estimate.unitsLeftOut());
            json.writeArrayFieldStart("byStratum");
            for (StratumFigure figure : estimate.figures()) {
                json.writeStartObject();
                json.writeStringField("stratum", figure.stratum());
                json.writeNumberField("placed", figure.placed());
                json.writeNumberField("control", figure.control());
                json.writeStringField("basis", figure.basis());
                json.writeNumberField("speedUp", figure.speedUp());
                json.writeNumberField("speedUpLow", figure.speedUpLow());
                json.writeNumberField("speedUpHigh", figure.speedUpHigh());
                json.writeNumberField("weight", figure.weight());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeObjectFieldStart("guard");
            json.writeStringField("mode", guard.mode().configName());
            json.writeBooleanField("placing", guard.placing());
            json.writeNumberField("looks", guard.looks());
            if (guard.stop().isPresent()) {
                GuardStop stop = guard.stop().get();
                json.writeNumberField("stoppedAtLook", stop.look());
                json.writeNumberField("threshold", stop.threshold());
                json.writeNumberField("unitsSinceStop", unitsAfterStop);
            }
            json.writeNumberField("controlShareNow", directive.controlShare());
            json.writeEndObject();
            json.writeObjectFieldStart("pluginCost");
            json.writeNumberField("pluginCpuNanos", cost.pluginCpuNanos());
            json.writeNumberField("jobCpuNanos", cost.jobCpuNanos());
            if (cost.share().isPresent()) {
                json.writeNumberField("share", cost.share().getAsDouble());
            }
            json.writeEndObject();
            json.writeArrayFieldStart("notes");
            for (String note : notes) {
                json.writeString(note);
            }
            json.writeEndArray();
            json.writeStringField("summary", summaryLine());
            json.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A page with the summary, a forest chart of the overall and the largest strata's speed-ups, and the notes. */
    public String html()
    {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Chiplet placement: ").append(escape(subject))
                .append("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}td,th{padding:.2em .6em;text-align:right}"
                        + "td:first-child,th:first-child{text-align:left}</style></head><body>\n");
        page.append("<h1>Chiplet placement, measured in place</h1>\n<p>").append(escape(summaryLine())).append("</p>\n");
        if (notMeasured.isPresent()) {
            page.append("<p>Not measured: ").append(escape(notMeasured.get())).append(".</p>\n");
        }
        page.append("<p>Design: ").append(escape(design)).append(". Speed-up is the job's: the control-equivalent time of the work done over its placed "
                + "time, within each ").append(escape(stratum.singular())).append(" a ratio of totals per unit read, ").append(escape(stratum.plural()))
                .append(" weighted by their share of the time. Above 1 placement made the job faster.</p>\n");
        estimate.minimumDetectableEffect().ifPresent(effect -> page.append(String.format(Locale.ROOT,
                "<p>Smallest effect these data could have detected (two-sided 5%%, 80%% power): &plusmn;%.1f%%.</p>%n", effect * 100)));
        estimate.perUnit().ifPresent(perUnit -> page.append(String.format(Locale.ROOT,
                "<p>Diagnostic, not the estimate: the per-%s geometric mean (every %s alike) is %.3fx (%.3f-%.3f)%s.</p>%n", escape(unit.singular()),
                escape(unit.singular()), 1 / perUnit.ratio(), 1 / perUnit.high(), 1 / perUnit.low(),
                estimate.perUnitDisagrees() ? ": it disagrees with the job's figure, so the effect differs with the " + escape(unit.plural()) + "' size" : "")));
        page.append(chart());
        page.append("<table><tr><th>").append(escape(stratum.singular())).append("</th><th>placed</th><th>control</th><th>basis</th><th>speed-up</th><th>approx. 95% CI</th><th>share of time</th></tr>\n");
        for (StratumFigure figure : largest()) {
            page.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%.3f</td><td>%.3f-%.3f</td><td>%.1f%%</td></tr>%n",
                    escape(figure.stratum()), figure.placed(), figure.control(), figure.basis(), figure.speedUp(), figure.speedUpLow(), figure.speedUpHigh(),
                    figure.weight() * 100));
        }
        page.append("</table>\n");
        if (!notes.isEmpty()) {
            page.append("<h2>Notes</h2><ul>\n");
            notes.forEach(note -> page.append("<li>").append(escape(note)).append("</li>\n"));
            page.append("</ul>\n");
        }
        page.append("<p>Generated ").append(escape(generatedAt)).append(". How to read this: docs/measuring.md of chiplet-jvm.</p>\n</body></html>\n");
        return page.toString();
    }

    private List<StratumFigure> largest()
    {
        return estimate.figures().stream().sorted(Comparator.comparingDouble(StratumFigure::weight).reversed()).limit(CHART_ROWS).toList();
    }

    /** Log-scaled speed-up axis; one row per stratum and a bold overall row; a line at 1. */
    private String chart()
    {
        List<StratumFigure> rows = largest();
        double low = 0.8;
        double high = 1.25;
        for (StratumFigure figure : rows) {
            low = Math.min(low, figure.speedUpLow());
            high = Math.max(high, figure.speedUpHigh());
        }
        if (estimate.enough()) {
            low = Math.min(low, estimate.speedUpLow().orElseThrow());
            high = Math.max(high, estimate.speedUpHigh().orElseThrow());
        }
        if (estimate.perUnit().isPresent()) {
            low = Math.min(low, 1 / estimate.perUnit().get().high());
            high = Math.max(high, 1 / estimate.perUnit().get().low());
        }
        low = Math.max(low, 0.1);
        high = Math.min(high, 10);
        int width = 640;
        int left = 160;
        int plot = width - left - 20;
        int rowHeight = 18;
        int height = (rows.size() + 3) * rowHeight + 30;
        double logLow = Math.log(low);
        double logSpan = Math.log(high) - logLow;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"11\" role=\"img\" aria-label=\"speed-up by %s\">%n",
                width, height, escape(stratum.singular())));
        double one = left + plot * (0 - logLow) / logSpan;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"4\"/>%n", one, one, height - 20));
        int y = rowHeight;
        if (estimate.enough()) {
            row(svg, "overall", estimate.speedUpLow().orElseThrow(), estimate.speedUp().orElseThrow(), estimate.speedUpHigh().orElseThrow(), y, left, plot, logLow, logSpan, true);
            if (estimate.perUnit().isPresent()) {
                RatioEstimate perUnit = estimate.perUnit().get();
                y += rowHeight;
                row(svg, "per " + unit.singular() + " (diagnostic)", 1 / perUnit.high(), 1 / perUnit.ratio(), 1 / perUnit.low(), y, left, plot, logLow, logSpan, false);
            }
        }
        else {
            svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">overall: not enough evidence yet</text>%n", y + 4));
        }
        for (StratumFigure figure : rows) {
            y += rowHeight;
            row(svg, figure.stratum(), figure.speedUpLow(), figure.speedUp(), figure.speedUpHigh(), y, left, plot, logLow, logSpan, false);
        }
        for (double tick : new double[] {low, 1, high}) {
            double x = left + plot * (Math.log(tick) - logLow) / logSpan;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.2fx</text>%n", x, height - 6, tick));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void row(StringBuilder svg, String label, double low, double point, double high, int y, int left, int plot, double logLow, double logSpan, boolean bold)
    {
        double x1 = left + plot * clamp((Math.log(low) - logLow) / logSpan);
        double x2 = left + plot * clamp((Math.log(high) - logLow) / logSpan);
        double x = left + plot * clamp((Math.log(point) - logLow) / logSpan);
        String colour = bold ? "#c33" : "#36c";
        svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\"%s>%s</text>", y + 4, bold ? " font-weight=\"bold\"" : "", escape(label.length() > 24 ? label.substring(0, 24) : label)));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%d\"/>", x1, y, x2, y, colour, bold ? 3 : 1));
        svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"%d\" fill=\"%s\"/>%n", x, y, bold ? 5 : 3, colour));
    }

    private static double clamp(double fraction)
    {
        return Math.max(0, Math.min(1, fraction));
    }

    private static String escape(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
