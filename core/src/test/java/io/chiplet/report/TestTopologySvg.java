package io.chiplet.report;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static io.chiplet.topology.HandBuiltTopologies.cgroupRestricted;
import static io.chiplet.topology.HandBuiltTopologies.dualEpycMilan;
import static io.chiplet.topology.HandBuiltTopologies.hybridLaptop;
import static io.chiplet.topology.HandBuiltTopologies.snc2Interleaved;
import static io.chiplet.topology.HandBuiltTopologies.tiny;
import static org.assertj.core.api.Assertions.assertThat;

class TestTopologySvg
{
    @Test
    void greysExactlyTheDisallowedCpus()
            throws Exception
    {
        for (Topology topology : List.of(cgroupRestricted(), tiny(), dualEpycMilan(), hybridLaptop(), snc2Interleaved())) {
            Document svg = parse(TopologySvg.render(topology));

            CpuSet disallowed = cpusWithClass(svg, "cpu disallowed");
            CpuSet allowed = cpusWithClass(svg, "cpu allowed");
            assertThat(disallowed).as(topology.source()).isEqualTo(topology.online().minus(topology.allowed()));
            assertThat(allowed).as(topology.source()).isEqualTo(topology.online().intersect(topology.allowed()));
            // Every online CPU is drawn exactly once.
            assertThat(cpuCells(svg)).hasSize(topology.online().size());
        }
    }

    @Test
    void disallowedCellsAreGreyAndAllowedOnesAreNot()
            throws Exception
    {
        Document svg = parse(TopologySvg.render(cgroupRestricted()));

        for (Element cell : cpuCells(svg)) {
            boolean disallowed = cell.getAttribute("class").equals("cpu disallowed");
            assertThat(cell.getAttribute("fill").equals("#d0d0d0")).as("CPU %s", cell.getAttribute("data-cpu")).isEqualTo(disallowed);
        }
    }

    @Test
    void drawsEveryPackageNodeAndChiplet()
            throws Exception
    {
        String svg = TopologySvg.render(snc2Interleaved());
        List<String> labels = texts(parse(svg));

        assertThat(labels).contains("package 0", "package 1", "NUMA node 3 · 48 GiB", "NUMA node 4 · 128 GiB · no CPUs", "chiplet 3 · L3 11 MiB");
        assertThat(labels).filteredOn(label -> label.startsWith("chiplet ")).hasSize(4);
    }

    @Test
    void escapesText()
            throws Exception
    {
        Topology base = tiny();
        Topology odd = base.toBuilder().source("hwloc-xml:/tmp/a&b<c>\"d'.xml").build();

        Document svg = parse(TopologySvg.render(odd));

        assertThat(svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title").item(0).getTextContent())
                .startsWith("hwloc-xml:/tmp/a&b<c>\"d'.xml: ");
        assertThat(TopologySvg.escape("a\u0001b")).isEqualTo("a?b");
    }

    /** The canvas ends near the drawing: no more than 30 % of it empty on the right, whatever the source's path or the legend. */
    @Test
    void theCanvasFitsTheDrawing()
            throws Exception
    {
        // Machines whose drawing is wider than the two heading lines (a small one's canvas is the heading's width).
        for (Topology base : List.of(dualEpycMilan(), snc2Interleaved(), cgroupRestricted())) {
            Topology topology = base.toBuilder()
                    .source("hwloc-xml:/a/long/path/to/where/the/tests/keep/their/resources/hwloc-xml/machine-with-a-long-name.xml").build();
            Element root = parse(TopologySvg.render(topology)).getDocumentElement();
            int width = Integer.parseInt(root.getAttribute("width"));
            NodeList rects = root.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
            int right = 0;
            for (int i = 1; i < rects.getLength(); i++) {
                Element rect = (Element) rects.item(i);
                right = Math.max(right, Integer.parseInt(rect.getAttribute("x")) + Integer.parseInt(rect.getAttribute("width")));
            }
            assertThat(width - right).as(base.source() + ": empty right of the drawing, canvas " + width).isLessThanOrEqualTo(width * 3 / 10);
        }
        assertThat(TopologySvg.shortSource("hwloc-xml:/x/y/m.xml")).isEqualTo("hwloc-xml:m.xml");
        assertThat(TopologySvg.shortSource("sysfs:/")).isEqualTo("sysfs:/");
    }

    /** What an executor writes into the event log draws the same picture as the machine it read. */
    @Test
    void thePictureTheEventLogCarriesDrawsTheSameMachine()
    {
        for (Topology topology : List.of(cgroupRestricted(), tiny(), dualEpycMilan(), hybridLaptop(), snc2Interleaved())) {
            MachinePicture picture = MachinePicture.of(topology);
            MachinePicture read = MachinePicture.parse(picture.json());

            assertThat(read).as(topology.source()).isEqualTo(picture);
            assertThat(TopologySvg.render(read, TopologySvg.Marks.NONE)).as(topology.source()).isEqualTo(TopologySvg.render(topology));
        }
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> MachinePicture.parse("{\"kind\":\"other\"}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chiplet.machine-picture/1");
    }

    /** A run's marks: each executor's CPUs in its colour and named, each chiplet's task count in its label. */
    @Test
    void marksWhereExecutorsAndTasksRan()
            throws Exception
    {
        MachinePicture machine = MachinePicture.of(dualEpycMilan());
        MachinePicture.ChipletCpus first = machine.chiplets().get(0);
        MachinePicture.ChipletCpus second = machine.chiplets().get(1);
        java.util.Map<Integer, String> owners = new java.util.TreeMap<>();
        first.cpus().stream().forEach(cpu -> owners.put(cpu, "1"));
        second.cpus().stream().forEach(cpu -> owners.put(cpu, "2"));

        Document svg = parse(TopologySvg.render(machine, new TopologySvg.Marks("host-a", owners, java.util.Map.of(first.id(), 7L))));

        CpuSet ofOne = CpuSet.of(cpuCells(svg).stream().filter(cell -> cell.getAttribute("data-executor").equals("1"))
                .mapToInt(cell -> Integer.parseInt(cell.getAttribute("data-cpu"))).toArray());
        assertThat(ofOne).isEqualTo(first.cpus());
        assertThat(cpuCells(svg).stream().filter(cell -> cell.getAttribute("data-executor").equals("2")).map(cell -> cell.getAttribute("fill")).distinct().toList())
                .hasSize(1).doesNotContain(cpuCells(svg).stream().filter(cell -> cell.getAttribute("data-executor").equals("1")).findFirst().orElseThrow().getAttribute("fill"));
        assertThat(texts(svg)).contains("host-a", "executor 1", "executor 2").anyMatch(label -> label.startsWith("chiplet " + first.id() + " ") && label.endsWith(" · 7 tasks"));
        assertThat(cpuCells(svg).stream().filter(cell -> cell.getAttribute("data-executor").isEmpty())).hasSize(machine.online().size() - first.cpus().size() - second.cpus().size());
    }

    private static Document parse(String svg)
            throws Exception
    {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
        assertThat(document.getDocumentElement().getLocalName()).isEqualTo("svg");
        return document;
    }

    private static List<Element> cpuCells(Document svg)
    {
        List<Element> cells = new ArrayList<>();
        NodeList rects = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element rect = (Element) rects.item(i);
            if (rect.hasAttribute("data-cpu")) {
                cells.add(rect);
            }
        }
        return cells;
    }

    private static CpuSet cpusWithClass(Document svg, String cssClass)
    {
        return CpuSet.of(cpuCells(svg).stream()
                .filter(cell -> cell.getAttribute("class").equals(cssClass))
                .mapToInt(cell -> Integer.parseInt(cell.getAttribute("data-cpu")))
                .toArray());
    }

    private static List<String> texts(Document svg)
    {
        List<String> texts = new ArrayList<>();
        NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }
}
