package io.chiplet.jmh.report;

import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/** Self-contained SVG charts, written as text so the report needs no plotting library. */
public final class SvgCharts
{
    /** Colour-blind safe (Okabe-Ito), one per series, repeating past eight. */
    private static final List<String> PALETTE = List.of("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000");

    private static final int BAR_WIDTH = 16;
    private static final int GROUP_GAP = 28;
    private static final int PLOT_HEIGHT = 220;
    private static final int LEFT = 60;
    private static final int TOP = 40;

    private SvgCharts() {}

    /**
     * Grouped bars, one group per {@code groups} entry and one bar per {@code series} entry, with a dashed line at
     * 1.0 (the baseline). {@code values[group][series]} is NaN where there is no measurement.
     */
    public static String groupedBars(String title, String yLabel, List<String> groups, List<String> series, double[][] values)
    {
        requireNonNull(title, "title is null");
        if (values.length != groups.size()) {
            throw new IllegalArgumentException("expected " + groups.size() + " groups of values but got " + values.length);
        }
        double max = 1.0;
        for (double[] row : values) {
            if (row.length != series.size()) {
                throw new IllegalArgumentException("expected " + series.size() + " values per group but got " + row.length);
            }
            for (double value : row) {
                if (Double.isFinite(value)) {
                    max = Math.max(max, value);
                }
            }
        }
        double top = Math.ceil(max * 4 * 1.05) / 4;
        int groupWidth = series.size() * BAR_WIDTH + GROUP_GAP;
        int plotWidth = Math.max(groups.size() * groupWidth, 200);
        int legendRows = (series.size() + 3) / 4;
        int width = Math.max(LEFT + plotWidth + 20, Math.max(titleWidth(title), LEFT + Math.min(series.size(), 4) * 110 + 20));
        int height = TOP + PLOT_HEIGHT + 40 + legendRows * 18 + 10;
        StringBuilder svg = header(width, height);
        text(svg, width / 2.0, 22, "middle", 15, "bold", title);
        text(svg, 14, TOP + PLOT_HEIGHT / 2.0, "middle", 11, "normal", yLabel, "rotate(-90 14 " + fmt(TOP + PLOT_HEIGHT / 2.0) + ")");
        for (double tick = 0; tick <= top + 1e-9; tick += tickStep(top)) {
            double y = y(tick, top);
            svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(fmt(y)).append("\" x2=\"").append(LEFT + plotWidth)
                    .append("\" y2=\"").append(fmt(y)).append("\" stroke=\"#dddddd\"/>\n");
            text(svg, LEFT - 6, y + 4, "end", 10, "normal", String.format(Locale.ROOT, "%.2f", tick));
        }
        for (int g = 0; g < groups.size(); g++) {
            double x0 = LEFT + g * groupWidth + GROUP_GAP / 2.0;
            for (int s = 0; s < series.size(); s++) {
                double value = values[g][s];
                if (!Double.isFinite(value)) {
                    continue;
                }
                double y = y(value, top);
                svg.append("<rect x=\"").append(fmt(x0 + s * BAR_WIDTH)).append("\" y=\"").append(fmt(y))
                        .append("\" width=\"").append(BAR_WIDTH - 2).append("\" height=\"").append(fmt(TOP + PLOT_HEIGHT - y))
                        .append("\" fill=\"").append(colour(s)).append("\"><title>").append(escape(series.get(s) + " " + groups.get(g)))
                        .append(String.format(Locale.ROOT, ": %.3f", value)).append("</title></rect>\n");
            }
            text(svg, x0 + series.size() * BAR_WIDTH / 2.0, TOP + PLOT_HEIGHT + 16, "middle", 11, "normal", groups.get(g));
        }
        double baseline = y(1.0, top);
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(fmt(baseline)).append("\" x2=\"").append(LEFT + plotWidth)
                .append("\" y2=\"").append(fmt(baseline)).append("\" stroke=\"#333333\" stroke-dasharray=\"4 3\"/>\n");
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(TOP).append("\" x2=\"").append(LEFT).append("\" y2=\"")
                .append(TOP + PLOT_HEIGHT).append("\" stroke=\"#333333\"/>\n");
        for (int s = 0; s < series.size(); s++) {
            double x = LEFT + (s % 4) * 110;
            double y = TOP + PLOT_HEIGHT + 34 + (s / 4) * 18;
            svg.append("<rect x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y - 10)).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(colour(s)).append("\"/>\n");
            text(svg, x + 16, y, "start", 11, "normal", series.get(s));
        }
        return svg.append("</svg>\n").toString();
    }

    /**
     * A square heatmap, {@code values[row][column]} (NaN where not measured), light for low and dark red for high,
     * with each cell's value printed when there are at most 16 rows.
     */
    public static String heatmap(String title, String unit, List<String> labels, double[][] values)
    {
        requireNonNull(title, "title is null");
        int n = labels.size();
        if (values.length != n) {
            throw new IllegalArgumentException("expected a " + n + "x" + n + " matrix but got " + values.length + " rows");
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double[] row : values) {
            if (row.length != n) {
                throw new IllegalArgumentException("expected a " + n + "x" + n + " matrix but a row has " + row.length + " values");
            }
            for (double value : row) {
                if (Double.isFinite(value)) {
                    min = Math.min(min, value);
                    max = Math.max(max, value);
                }
            }
        }
        int cell = n <= 16 ? 40 : Math.max(6, 640 / n);
        int left = 50;
        int top = 50;
        int width = Math.max(left + n * cell + 120, titleWidth(title));
        int height = top + n * cell + 30;
        StringBuilder svg = header(width, height);
        text(svg, width / 2.0, 22, "middle", 15, "bold", title);
        for (int row = 0; row < n; row++) {
            if (n <= 32) {
                text(svg, left - 6, top + row * cell + cell / 2.0 + 4, "end", 10, "normal", labels.get(row));
                text(svg, left + row * cell + cell / 2.0, top - 6, "middle", 10, "normal", labels.get(row));
            }
            for (int column = 0; column < n; column++) {
                double value = values[row][column];
                String fill = Double.isFinite(value) ? heat(value, min, max) : "#f4f4f4";
                svg.append("<rect x=\"").append(left + column * cell).append("\" y=\"").append(top + row * cell).append("\" width=\"")
                        .append(cell).append("\" height=\"").append(cell).append("\" fill=\"").append(fill).append("\" stroke=\"#ffffff\">");
                if (Double.isFinite(value)) {
                    svg.append("<title>").append(escape(labels.get(row) + " - " + labels.get(column)))
                            .append(String.format(Locale.ROOT, ": %.1f %s", value, escape(unit))).append("</title>");
                }
                svg.append("</rect>\n");
                if (Double.isFinite(value) && n <= 16) {
                    boolean dark = max > min && (value - min) / (max - min) > 0.6;
                    svg.append("<text x=\"").append(fmt(left + column * cell + cell / 2.0)).append("\" y=\"").append(fmt(top + row * cell + cell / 2.0 + 4))
                            .append("\" text-anchor=\"middle\" font-size=\"10\" fill=\"").append(dark ? "#ffffff" : "#000000").append("\">")
                            .append(compact(value)).append("</text>\n");
                }
            }
        }
        if (min <= max) {
            double x = left + n * cell + 20;
            for (int step = 0; step <= 10; step++) {
                double value = max - (max - min) * step / 10.0;
                svg.append("<rect x=\"").append(fmt(x)).append("\" y=\"").append(fmt(top + step * 14.0)).append("\" width=\"14\" height=\"14\" fill=\"")
                        .append(heat(value, min, max)).append("\"/>\n");
            }
            text(svg, x + 20, top + 10, "start", 10, "normal", compact(max) + " " + unit);
            text(svg, x + 20, top + 150, "start", 10, "normal", compact(min) + " " + unit);
        }
        return svg.append("</svg>\n").toString();
    }

    /** Room for a 15 px bold title: about 9 px a character, with margins. */
    private static int titleWidth(String title)
    {
        return title.length() * 9 + 40;
    }

    private static StringBuilder header(int width, int height)
    {
        return new StringBuilder()
                .append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, int size, String weight, String content)
    {
        text(svg, x, y, anchor, size, weight, content, "");
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, int size, String weight, String content, String transform)
    {
        svg.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" text-anchor=\"").append(anchor)
                .append("\" font-size=\"").append(size).append("\" font-weight=\"").append(weight).append('"');
        if (!transform.isEmpty()) {
            svg.append(" transform=\"").append(transform).append('"');
        }
        svg.append('>').append(escape(content)).append("</text>\n");
    }

    private static double y(double value, double top)
    {
        return TOP + PLOT_HEIGHT * (1 - value / top);
    }

    private static double tickStep(double top)
    {
        return top <= 1.5 ? 0.25 : top <= 4 ? 0.5 : Math.ceil(top / 8);
    }

    private static String colour(int series)
    {
        return PALETTE.get(series % PALETTE.size());
    }

    /** White-yellow to dark red as {@code value} goes from {@code min} to {@code max}. */
    private static String heat(double value, double min, double max)
    {
        double t = max > min ? (value - min) / (max - min) : 0.5;
        int red = (int) Math.round(255 - 75 * t);
        int green = (int) Math.round(245 - 220 * t);
        int blue = (int) Math.round(200 - 170 * t);
        return String.format(Locale.ROOT, "#%02x%02x%02x", red, green, blue);
    }

    /** At most four characters or so: 3.7, 24, 1.5k, 18.9M, so a value fits its cell. */
    static String compact(double value)
    {
        double magnitude = Math.abs(value);
        if (magnitude >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", value / 1e6);
        }
        if (magnitude >= 1e4) {
            return String.format(Locale.ROOT, "%.0fk", value / 1e3);
        }
        if (magnitude >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        }
        return String.format(Locale.ROOT, magnitude < 10 ? "%.1f" : "%.0f", value);
    }

    private static String fmt(double value)
    {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    static String escape(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
