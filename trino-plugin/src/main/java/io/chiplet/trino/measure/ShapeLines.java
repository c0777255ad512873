package io.chiplet.trino.measure;

import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.PluginCost;
import io.chiplet.measure.StratumFigure;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The WARN line per query shape: once the shape has enough evidence, at most once a {@link QueryMeasurements#LINE_EVERY}
 * (for at most {@link QueryTexts#MAX_SHAPES_NAMED} shapes; others at each update). Not thread-safe.
 */
final class ShapeLines
{
    private final Map<String, Instant> lastLine = new HashMap<>();

    /** The line for {@code shape} where it has enough evidence and had none in the last minute; empty otherwise. */
    Optional<String> lineFor(String shape, Measurement measurement, QueryTexts texts, Supplier<PluginCost> cost, Instant now)
    {
        Optional<StratumFigure> figure = enoughFigure(shape, measurement);
        if (figure.isEmpty()) {
            return Optional.empty();
        }
        Instant last = lastLine.get(shape);
        if (last != null && Duration.between(last, now).compareTo(QueryMeasurements.LINE_EVERY) < 0) {
            return Optional.empty();
        }
        if (lastLine.size() < QueryTexts.MAX_SHAPES_NAMED || last != null) {
            lastLine.put(shape, now);
        }
        return Optional.of(line(figure.get(), measurement, texts.of(shape), cost.get()));
    }

    private static Optional<StratumFigure> enoughFigure(String shape, Measurement measurement)
    {
        int needed = measurement.plan().minUnitsPerArm();
        // One figure per share the shape was drawn at; the one with the most queries speaks for it.
        return measurement.estimate().figures().stream()
                .filter(figure -> shapeOf(figure.stratum()).equals(shape) && figure.enough(needed))
                .max(Comparator.comparingInt(figure -> figure.placed() + figure.control()));
    }

    /** The shape of a stratum named by {@link DrawnArm#stratum}: the text before its share. */
    static String shapeOf(String stratum)
    {
        int comma = stratum.indexOf(", ");
        return comma < 0 ? stratum : stratum.substring(0, comma);
    }

    static String line(StratumFigure figure, Measurement measurement, String text, PluginCost cost)
    {
        String verdict = figure.verdict(measurement.plan().minUnitsPerArm());
        String shape = shapeOf(figure.stratum());
        String drawn = figure.stratum().length() > shape.length() + 2 ? figure.stratum().substring(shape.length() + 2) : "";
        String detectable = String.format(Locale.ROOT, "\u00b1%.1f%%", detectableEffect(figure) * 100);
        verdict += verdict.startsWith("placed ") ? "; smallest detectable effect " + detectable
                : "; no difference measurable; an effect beyond " + detectable + " would have shown";
        return String.format(Locale.ROOT, "Chiplet placement measured in place for query shape %s (%s): speed-up %.3fx (95%% CI %.3f-%.3f, %s) from %d placed "
                        + "and %d control windows (drawn %s), CPU time per %s; plugin CPU %s of the queries' (its threads, hooks and own statements, "
                        + "on CPU clocks); guard %s: %s",
                shape, abbreviate(text), figure.speedUp(), figure.speedUpLow(), figure.speedUpHigh(), verdict, figure.placed(),
                figure.control(), drawn, figure.basis().equals("unit") ? "query" : figure.basis().equals("bytes") ? "byte read" : "row read",
                cost.share().isPresent() ? String.format(Locale.ROOT, "%.3f%%", cost.share().getAsDouble() * 100) : "unknown",
                measurement.guard().mode().configName(),
                measurement.guard().placing() ? String.format(Locale.ROOT, "placing, control share %.1f%%", measurement.directive().controlShare() * 100)
                        : "placement stopped");
    }

    /**
     * The smallest effect a shape's figure could have shown, as core's report gives it for the whole estimate (a
     * two-sided test at 95 % with 80 % power): the interval's half-width on the log scale times {@code (z_0.975 +
     * z_0.8) / z_0.975}, normal quantiles standing in for the figure's Student's t (their ratio differs by under 5 %
     * from 20 windows an arm on).
     */
    static double detectableEffect(StratumFigure figure)
    {
        double halfLog = (Math.log(figure.high()) - Math.log(figure.low())) / 2;
        return Math.expm1(halfLog * (1.959964 + 0.841621) / 1.959964);
    }

    /** The text on one line, at most 60 characters. */
    static String abbreviate(String text)
    {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() > 60 ? line.substring(0, 57) + "..." : line;
    }
}
