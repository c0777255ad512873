package io.chiplet.report;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * A picture of a machine, one renderer for {@code chiplet topology --format svg}, the Spark UI's Chiplet tab and
 * {@code chiplet report}: packages stacked top to bottom, their NUMA nodes side by side, chiplets (L3 groups) in a
 * grid inside each node, and every core as a column of its CPUs (SMT siblings). CPUs the process may not use are
 * grey. Each CPU cell carries {@code class="cpu allowed"} or {@code class="cpu disallowed"} and {@code data-cpu="N"}
 * so scripts and tests can find it. {@link Marks} add where a run's executors and tasks were: an executor's CPUs in
 * its colour ({@code data-executor}), each chiplet's task count in its label.
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
    /** Executors' colours: apart from the core kinds' fills and the grey of disallowed CPUs. */
    private static final String[] EXECUTOR_FILLS = {"#4caf50", "#ff9800", "#ab47bc", "#26c6da", "#ef5350", "#8d6e63", "#d4e157", "#5c6bc0"};

    /**
     * What a run adds to the machine's picture.
     *
     * @param heading the picture's first line (a host's name); empty for the source's file name
     * @param cpuOwners the executor(s) working on each CPU, by CPU ("1", or "1, 2" where two share it)
     * @param tasksByChiplet tasks started on each chiplet, by chiplet id
     */
    public record Marks(String heading, Map<Integer, String> cpuOwners, Map<Integer, Long> tasksByChiplet)
    {
        public static final Marks NONE = new Marks("", Map.of(), Map.of());

        public Marks
        {
            requireNonNull(heading, "heading is null");
            cpuOwners = Map.copyOf(cpuOwners);
            tasksByChiplet = Map.copyOf(tasksByChiplet);
        }
    }

    private TopologySvg() {}

    public static String render(Topology topology)
    {
        return render(MachinePicture.of(requireNonNull(topology, "topology is null")), Marks.NONE);
    }

    public static String render(MachinePicture machine, Marks marks)
    {
        requireNonNull(machine, "machine is null");
        requireNonNull(marks, "marks is null");
        // Executors in the order of their ids (numbers as numbers), each with its colour.
        Map<String, String> executorFills = new LinkedHashMap<>();
        marks.cpuOwners().values().stream().distinct().sorted(TopologySvg::byNumber)
                .forEach(owner -> executorFills.put(owner, EXECUTOR_FILLS[executorFills.size() % EXECUTOR_FILLS.length]));
        Drawing drawing = new Drawing(machine, marks, executorFills);
        List<Box> rows = new ArrayList<>();

        Map<Integer, Map<Integer, List<MachinePicture.ChipletCpus>>> tree = new TreeMap<>();
        for (MachinePicture.ChipletCpus chiplet : machine.chiplets()) {
            tree.computeIfAbsent(chiplet.packageId(), key -> new TreeMap<>())
                    .computeIfAbsent(chiplet.numaNode(), key -> new ArrayList<>())
                    .add(chiplet);
        }
        for (Map.Entry<Integer, Map<Integer, List<MachinePicture.ChipletCpus>>> pkg : tree.entrySet()) {
            List<Box> nodes = new ArrayList<>();
            for (Map.Entry<Integer, List<MachinePicture.ChipletCpus>> node : pkg.getValue().entrySet()) {
                List<Box> chiplets = node.getValue().stream().map(chiplet -> chipletBox(chiplet, marks)).toList();
                nodes.add(new Group(Style.NUMA, nodeLabel(node.getKey(), machine), 4, chiplets));
            }
            String label = pkg.getKey() < 0 ? "no package" : "package " + pkg.getKey();
            rows.add(new Group(Style.PACKAGE, label, 4, nodes));
        }
        List<Box> memoryOnly = machine.memoryOnlyNodes().stream()
                .<Box>map(node -> new Group(Style.NUMA, nodeLabel(node, machine) + " · no CPUs", 1, List.of()))
                .toList();
        if (!memoryOnly.isEmpty()) {
            rows.add(new Group(Style.PLAIN, "memory without CPUs", 4, memoryOnly));
        }
        Group whole = new Group(Style.PLAIN, "", 1, rows);

        String counts = machine.online().size() + " CPUs online, " + machine.allowed().intersect(machine.online()).size() + " allowed, "
                + machine.chiplets().size() + (machine.chiplets().size() == 1 ? " chiplet" : " chiplets");
        String title = (marks.heading().isEmpty() ? "" : marks.heading() + ", ") + machine.source() + ": " + counts;
        // The heading shows the source's file name only, its counts on a line of their own: a long path would set the
        // canvas width and leave most of it empty (the whole source stays in <title>).
        String heading = marks.heading().isEmpty() ? shortSource(machine.source()) : marks.heading();
        int headerHeight = 42;
        boolean unowned = executorFills.isEmpty() || machine.allowed().intersect(machine.online()).stream().anyMatch(cpu -> !marks.cpuOwners().containsKey(cpu));
        List<String[]> legend = legend(machine, executorFills, unowned);
        int widestEntry = legend.stream().mapToInt(entry -> legendEntryWidth(entry[0])).max().orElse(0) + 2 * PAD;
        int width = Math.max(Math.max(whole.width(), widestEntry),
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
        int height = headerHeight + whole.height() + legendHeight;

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
        whole.draw(drawing, 0, headerHeight, svg);

        for (int i = 0; i < legend.size(); i++) {
            String[] entry = legend.get(i);
            int x = legendAt.get(i)[0];
            int y = headerHeight + whole.height() + 4 + 20 * legendAt.get(i)[1];
            svg.append(rect(x, y, 14, 14, entry[1], "#666666"));
            svg.append(text(x + 18, y + 11, 11, "normal", "#000000", entry[0]));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** {@code render} without the XML declaration, to sit inside an HTML page. */
    public static String inline(MachinePicture machine, Marks marks)
    {
        String svg = render(machine, marks);
        return svg.substring(svg.indexOf("<svg"));
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

    private static Box chipletBox(MachinePicture.ChipletCpus chiplet, Marks marks)
    {
        List<Box> cores = new ArrayList<>();
        for (int i = 0; i < chiplet.cores().size(); i++) {
            cores.add(new CoreBox(chiplet.cores().get(i), chiplet.coreKinds().isEmpty() ? 0 : chiplet.coreKinds().get(i)));
        }
        int columns = Math.min(cores.size(), Math.max(4, (int) Math.ceil(Math.sqrt(cores.size()))));
        String l3 = chiplet.l3Bytes() > 0 ? " · L3 " + ByteSize.rounded(chiplet.l3Bytes()) : "";
        Long tasks = marks.tasksByChiplet().get(chiplet.id());
        String ran = tasks == null ? "" : " · " + tasks + (tasks == 1 ? " task" : " tasks");
        return new Group(Style.CHIPLET, "chiplet " + chiplet.id() + l3 + ran, columns, List.copyOf(cores));
    }

    private static String nodeLabel(int id, MachinePicture machine)
    {
        Long memory = machine.nodeMemoryBytes().get(id);
        return (id < 0 ? "no NUMA node" : "NUMA node " + id) + (memory == null ? "" : " · " + ByteSize.rounded(memory));
    }

    private static int byNumber(String a, String b)
    {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }

    /** @param unowned whether some allowed CPU has no executor (then its fill is in the legend) */
    private static List<String[]> legend(MachinePicture machine, Map<String, String> executorFills, boolean unowned)
    {
        List<String[]> legend = new ArrayList<>();
        if (machine.kinds().size() > 1) {
            for (int kind = 0; kind < machine.kinds().size(); kind++) {
                legend.add(new String[] {machine.kinds().get(kind) + " core CPU" + (executorFills.isEmpty() ? "" : " of no executor"), KIND_FILLS[Math.min(kind, KIND_FILLS.length - 1)]});
            }
        }
        else if (unowned) {
            legend.add(new String[] {executorFills.isEmpty() ? "CPU" : "CPU of no executor", KIND_FILLS[0]});
        }
        executorFills.forEach((owner, fill) -> legend.add(new String[] {(owner.contains(",") ? "executors " : "executor ") + owner, fill}));
        legend.add(new String[] {"not allowed (cgroup cpuset / affinity)", DISALLOWED_FILL});
        return legend;
    }

    /** What every box draws from. */
    private record Drawing(MachinePicture machine, Marks marks, Map<String, String> executorFills) {}

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

        void draw(Drawing drawing, int x, int y, StringBuilder svg);
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
        public void draw(Drawing drawing, int x, int y, StringBuilder svg)
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
                    children.get(row * usedColumns() + column).draw(drawing, x + PAD + column * (cellWidth + GAP), rowY, svg);
                }
                rowY += rowHeight(row) + GAP;
            }
        }
    }

    /** A physical core: a column of its CPUs. */
    private record CoreBox(CpuSet cpus, int kind)
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
        public void draw(Drawing drawing, int x, int y, StringBuilder svg)
        {
            svg.append(rect(x, y, width(), height(), "#ffffff", "#999999"));
            int cpuY = y + 2;
            for (int cpu : cpus.toArray()) {
                boolean allowed = drawing.machine().allowed().contains(cpu);
                String owner = drawing.marks().cpuOwners().get(cpu);
                String fill = !allowed ? DISALLOWED_FILL : owner != null ? drawing.executorFills().get(owner) : KIND_FILLS[Math.min(kind, KIND_FILLS.length - 1)];
                svg.append("<rect class=\"cpu ").append(allowed ? "allowed" : "disallowed")
                        .append("\" data-cpu=\"").append(cpu);
                if (owner != null) {
                    svg.append("\" data-executor=\"").append(escape(owner));
                }
                svg.append("\" x=\"").append(x + 2).append("\" y=\"").append(cpuY)
                        .append("\" width=\"").append(CPU_WIDTH).append("\" height=\"").append(CPU_HEIGHT)
                        .append("\" fill=\"").append(fill)
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
