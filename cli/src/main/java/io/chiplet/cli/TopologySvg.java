package io.chiplet.cli;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Core;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * A picture of the machine for {@code chiplet topology --format svg}: packages stacked top to bottom, their NUMA
 * nodes side by side, chiplets in a grid inside each node, and every core as a column of its CPUs (SMT
 * siblings). CPUs this process may not use are grey. Each CPU cell carries {@code class="cpu allowed"} or
 * {@code class="cpu disallowed"} and {@code data-cpu="N"} so scripts and tests can find it.
 */
public final class TopologySvg
{
    private static final int PAD = 6;
    private static final int GAP = 6;
    private static final int LABEL_HEIGHT = 16;
    private static final int CPU_WIDTH = 30;
    private static final int CPU_HEIGHT = 16;
    private static final int CORE_WIDTH = CPU_WIDTH + 4;
    private static final double LABEL_CHAR_WIDTH = 6.6;

    private static final String DISALLOWED_FILL = "#d0d0d0";
    private static final String DISALLOWED_TEXT = "#808080";
    private static final String[] KIND_FILLS = {"#9cc3e6", "#f5c57f", "#b9dba0", "#d9b3e6"};

    private TopologySvg() {}

    public static String render(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        List<Box> rows = new ArrayList<>();

        Map<Integer, Map<Integer, List<Chiplet>>> tree = new TreeMap<>();
        for (Chiplet chiplet : topology.chiplets()) {
            tree.computeIfAbsent(chiplet.packageId(), key -> new TreeMap<>())
                    .computeIfAbsent(chiplet.numaNode(), key -> new ArrayList<>())
                    .add(chiplet);
        }
        for (Map.Entry<Integer, Map<Integer, List<Chiplet>>> pkg : tree.entrySet()) {
            List<Box> nodes = new ArrayList<>();
            for (Map.Entry<Integer, List<Chiplet>> node : pkg.getValue().entrySet()) {
                List<Box> chiplets = node.getValue().stream().map(chiplet -> chipletBox(topology, chiplet)).toList();
                nodes.add(new Group(Style.NUMA, nodeLabel(node.getKey(), topology.numaNode(node.getKey())), 4, chiplets));
            }
            String label = pkg.getKey() < 0 ? "no package" : "package " + pkg.getKey();
            rows.add(new Group(Style.PACKAGE, label, 4, nodes));
        }
        List<Box> memoryOnly = topology.numaNodes().stream()
                .filter(node -> !node.hasCpus())
                .<Box>map(node -> new Group(Style.NUMA, nodeLabel(node.id(), Optional.of(node)) + " · no CPUs", 1, List.of()))
                .toList();
        if (!memoryOnly.isEmpty()) {
            rows.add(new Group(Style.PLAIN, "memory without CPUs", 4, memoryOnly));
        }
        Group machine = new Group(Style.PLAIN, "", 1, rows);

        String counts = topology.online().size() + " CPUs online, " + topology.allowed().intersect(topology.online()).size() + " allowed, "
                + topology.chiplets().size() + (topology.chiplets().size() == 1 ? " chiplet" : " chiplets");
        String title = topology.source() + ": " + counts;
        // The heading shows the source's file name only, its counts on a line of their own: a long path would set the
        // canvas width and leave most of it empty (the whole source stays in <title>).
        String heading = shortSource(topology.source());
        int headerHeight = 42;
        List<String[]> legend = legend(topology);
        int widestEntry = legend.stream().mapToInt(entry -> legendEntryWidth(entry[0])).max().orElse(0) + 2 * PAD;
        int width = Math.max(Math.max(machine.width(), widestEntry),
                Math.max((int) (heading.length() * 8.6), (int) (counts.length() * LABEL_CHAR_WIDTH * 12 / 11)) + 2 * PAD);
        // The legend wraps at the drawing's width rather than widening the canvas.
        List<int[]> legendAt = new ArrayList<>();
        int legendX = PAD;
        int legendRow = 0;
        for (String[] entry : legend) {
            if (legendX > PAD && legendX + legendEntryWidth(entry[0]) > width - PAD) {
                legendX = PAD;
                legendRow++;
            }
            legendAt.add(new int[] {legendX, legendRow});
            legendX += legendEntryWidth(entry[0]);
        }
        int legendHeight = 24 + 20 * legendRow;
        int height = headerHeight + machine.height() + legendHeight;

        StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
                .append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n");
        svg.append("<title>").append(escape(title)).append("</title>\n");
        svg.append("<rect x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height).append("\" fill=\"#ffffff\"/>\n");
        svg.append(text(PAD, 18, 14, "bold", "#000000", heading));
        svg.append(text(PAD, 34, 12, "normal", "#000000", counts));
        machine.draw(topology, 0, headerHeight, svg);

        for (int i = 0; i < legend.size(); i++) {
            String[] entry = legend.get(i);
            int x = legendAt.get(i)[0];
            int y = headerHeight + machine.height() + 4 + 20 * legendAt.get(i)[1];
            svg.append(rect(x, y, 14, 14, entry[1], "#666666"));
            svg.append(text(x + 18, y + 11, 11, "normal", "#000000", entry[0]));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** {@code hwloc-xml:/a/b/machine.xml} as {@code hwloc-xml:machine.xml}; a source without a path as it is. */
    static String shortSource(String source)
    {
        int slash = source.lastIndexOf('/');
        int colon = source.indexOf(':');
        if (slash < 0 || colon < 0 || slash < colon || slash == source.length() - 1) {
            return source;
        }
        return source.substring(0, colon + 1) + source.substring(slash + 1);
    }

    private static int legendEntryWidth(String label)
    {
        return 18 + (int) (label.length() * LABEL_CHAR_WIDTH) + 16;
    }

    private static Box chipletBox(Topology topology, Chiplet chiplet)
    {
        List<CoreBox> cores = new ArrayList<>();
        CpuSet covered = CpuSet.empty();
        for (Core core : topology.cores()) {
            if (chiplet.cpus().contains(core.firstCpu())) {
                CpuSet cpus = core.cpus().intersect(chiplet.cpus());
                cores.add(new CoreBox(cpus, core.kind()));
                covered = covered.union(cpus);
            }
        }
        // A source that knows no cores still shows every CPU of the chiplet.
        chiplet.cpus().minus(covered).stream().forEach(cpu -> cores.add(new CoreBox(CpuSet.of(cpu), Optional.empty())));
        cores.sort((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first()));

        int columns = Math.min(cores.size(), Math.max(4, (int) Math.ceil(Math.sqrt(cores.size()))));
        String l3 = chiplet.l3Bytes() > 0 ? " · L3 " + TopologyText.bytes(chiplet.l3Bytes()) : "";
        return new Group(Style.CHIPLET, "chiplet " + chiplet.id() + l3, columns, List.copyOf(cores));
    }

    private static String nodeLabel(int id, Optional<NumaNode> node)
    {
        String memory = node.flatMap(n -> n.memoryBytes().isPresent() ? Optional.of(n.memoryBytes().getAsLong()) : Optional.empty())
                .map(bytes -> " · " + TopologyText.bytes(bytes))
                .orElse("");
        return TopologyText.nodeName(id) + memory;
    }

    private static List<String[]> legend(Topology topology)
    {
        List<String[]> legend = new ArrayList<>();
        if (topology.isHybrid()) {
            for (CoreKind kind : topology.coreKinds()) {
                legend.add(new String[] {kind.name() + " core CPU", kindFill(topology, Optional.of(kind.name()))});
            }
        }
        else {
            legend.add(new String[] {"CPU", KIND_FILLS[0]});
        }
        legend.add(new String[] {"not allowed (cgroup cpuset / affinity)", DISALLOWED_FILL});
        return legend;
    }

    private static String kindFill(Topology topology, Optional<String> kind)
    {
        if (kind.isPresent()) {
            for (CoreKind coreKind : topology.coreKinds()) {
                if (coreKind.name().equals(kind.get())) {
                    return KIND_FILLS[Math.min(coreKind.rank(), KIND_FILLS.length - 1)];
                }
            }
        }
        return KIND_FILLS[0];
    }

    private enum Style
    {
        PACKAGE("#f2f2f2", "#555555"),
        NUMA("#e6eef9", "#5a7db5"),
        CHIPLET("#fff6e0", "#c58a1a"),
        PLAIN("none", "none");

        final String fill;
        final String stroke;

        Style(String fill, String stroke)
        {
            this.fill = fill;
            this.stroke = stroke;
        }
    }

    private sealed interface Box
            permits Group, CoreBox
    {
        int width();

        int height();

        void draw(Topology topology, int x, int y, StringBuilder svg);
    }

    /** A labelled box laying its children out in a grid of equal cells, {@code columns} wide. */
    private record Group(Style style, String label, int columns, List<Box> children)
            implements Box
    {
        private int cellWidth()
        {
            return children.stream().mapToInt(Box::width).max().orElse(0);
        }

        /** Rows take the height of their tallest child, so one row of SMT cores does not stretch the rest. */
        private int rowHeight(int row)
        {
            int from = row * usedColumns();
            int to = Math.min(children.size(), from + usedColumns());
            return children.subList(from, to).stream().mapToInt(Box::height).max().orElse(0);
        }

        private int usedColumns()
        {
            return Math.max(1, Math.min(columns, children.size()));
        }

        private int rows()
        {
            return (children.size() + usedColumns() - 1) / usedColumns();
        }

        private int labelHeight()
        {
            return label.isEmpty() ? 0 : LABEL_HEIGHT;
        }

        @Override
        public int width()
        {
            int cells = usedColumns() * cellWidth() + (usedColumns() - 1) * GAP;
            int labelWidth = (int) Math.ceil(label.length() * LABEL_CHAR_WIDTH);
            return 2 * PAD + Math.max(cells, labelWidth);
        }

        @Override
        public int height()
        {
            int cells = 0;
            for (int row = 0; row < rows(); row++) {
                cells += rowHeight(row) + (row > 0 ? GAP : 0);
            }
            return labelHeight() + 2 * PAD + cells;
        }

        @Override
        public void draw(Topology topology, int x, int y, StringBuilder svg)
        {
            if (style != Style.PLAIN) {
                svg.append(rect(x, y, width(), height(), style.fill, style.stroke));
            }
            if (!label.isEmpty()) {
                svg.append(text(x + PAD, y + PAD + 10, 11, style == Style.PACKAGE ? "bold" : "normal", "#000000", label));
            }
            int cellWidth = cellWidth();
            int rowY = y + labelHeight() + PAD;
            for (int row = 0; row < rows(); row++) {
                for (int column = 0; column < usedColumns() && row * usedColumns() + column < children.size(); column++) {
                    children.get(row * usedColumns() + column).draw(topology, x + PAD + column * (cellWidth + GAP), rowY, svg);
                }
                rowY += rowHeight(row) + GAP;
            }
        }
    }

    /** A physical core: a column of its CPUs. */
    private record CoreBox(CpuSet cpus, Optional<String> kind)
            implements Box
    {
        @Override
        public int width()
        {
            return CORE_WIDTH;
        }

        @Override
        public int height()
        {
            return 4 + cpus.size() * (CPU_HEIGHT + 2);
        }

        @Override
        public void draw(Topology topology, int x, int y, StringBuilder svg)
        {
            svg.append(rect(x, y, width(), height(), "#ffffff", "#999999"));
            int cpuY = y + 2;
            for (int cpu : cpus.toArray()) {
                boolean allowed = topology.allowed().contains(cpu);
                svg.append("<rect class=\"cpu ").append(allowed ? "allowed" : "disallowed")
                        .append("\" data-cpu=\"").append(cpu)
                        .append("\" x=\"").append(x + 2).append("\" y=\"").append(cpuY)
                        .append("\" width=\"").append(CPU_WIDTH).append("\" height=\"").append(CPU_HEIGHT)
                        .append("\" fill=\"").append(allowed ? kindFill(topology, kind) : DISALLOWED_FILL)
                        .append("\"/>\n");
                svg.append(text(x + 2 + CPU_WIDTH / 2, cpuY + 12, 10, "normal", allowed ? "#000000" : DISALLOWED_TEXT, String.valueOf(cpu))
                        .replace("<text ", "<text text-anchor=\"middle\" "));
                cpuY += CPU_HEIGHT + 2;
            }
        }
    }

    private static String rect(int x, int y, int width, int height, String fill, String stroke)
    {
        return "<rect x=\"" + x + "\" y=\"" + y + "\" width=\"" + width + "\" height=\"" + height
                + "\" rx=\"3\" fill=\"" + fill + "\" stroke=\"" + stroke + "\"/>\n";
    }

    private static String text(int x, int y, int size, String weight, String fill, String content)
    {
        return "<text x=\"" + x + "\" y=\"" + y + "\" font-size=\"" + size + "\" font-weight=\"" + weight
                + "\" fill=\"" + fill + "\">" + escape(content) + "</text>\n";
    }

    /** Escapes text for XML content and attribute values. */
    static String escape(String text)
    {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    // XML 1.0 forbids most control characters even when escaped.
                    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                        out.append('?');
                    }
                    else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
