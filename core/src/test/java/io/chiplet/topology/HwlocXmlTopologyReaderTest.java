package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.chiplet.topology.CpuSet.parseList;
import static java.util.stream.Collectors.toMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Golden facts, checked by hand against {@code lstopo-no-graphics -i FILE --only TYPE --cpuset} (hwloc 2.9) and the
 * XML itself. The XMLs other than the EPYC one are what {@code HWLOC_FSROOT=DIR lstopo-no-graphics --whole-system
 * --of xml} wrote for the five sysfs snapshots of {@code ../shared/fixtures/hwloc-sysfs}.
 */
public class HwlocXmlTopologyReaderTest
{
    private static final long MIB = 1024 * 1024;

    @Test
    void dualEpyc7763()
    {
        Topology topology = facts("AMD-Zen3-2xEpyc-7763.xml");

        assertThat(topology.source()).startsWith("hwloc-xml:").endsWith("AMD-Zen3-2xEpyc-7763.xml");
        assertThat(topology.present()).isEqualTo(parseList("0-127"));
        assertThat(topology.online()).isEqualTo(parseList("0-127"));
        assertThat(topology.allowed()).isEqualTo(parseList("0-127"));
        assertThat(packages(topology)).containsExactly(Map.entry(0, "0-63"), Map.entry(1, "64-127"));
        assertThat(topology.numaNodes()).singleElement().satisfies(node -> {
            assertThat(node.id()).isZero();
            assertThat(node.cpus()).isEqualTo(parseList("0-127"));
            assertThat(node.memoryBytes()).isEmpty();
        });
        List<Cache> l3 = topology.cachesOfLevel(3);
        assertThat(l3).hasSize(16).allSatisfy(cache -> {
            assertThat(cache.sizeBytes()).isEqualTo(32 * MIB);
            assertThat(cache.lineSizeBytes()).isEqualTo(64);
            assertThat(cache.type()).isEqualTo(CacheType.UNIFIED);
            assertThat(cache.cpus().size()).isEqualTo(8);
        });
        assertThat(l3.stream().map(cache -> cache.cpus().toList()))
                .containsExactlyElementsOf(IntStream.range(0, 16).mapToObj(i -> (8 * i) + "-" + (8 * i + 7)).toList());
        assertThat(topology.cachesOfLevel(2)).hasSize(128).allSatisfy(cache -> assertThat(cache.sizeBytes()).isEqualTo(512 * 1024));
        assertThat(topology.cachesOfLevel(1)).hasSize(256);
        assertThat(topology.cores()).hasSize(128).allSatisfy(core -> {
            assertThat(core.cpus().size()).isEqualTo(1);
            assertThat(core.packageId()).isEqualTo(core.firstCpu() < 64 ? 0 : 1);
            assertThat(core.kind()).isEmpty();
        });
        assertThat(topology.coreKinds()).isEmpty();
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).startsWith("NUMA memory:").contains("[0]"));
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).startsWith("kinds of core:"));
    }

    @Test
    void packagesWithoutOsIndexAreReadWithIdMinusOneAndKeepTheirChipletsApart()
    {
        // hwloc writes no os_index for a package whose physical_package_id is -1 (s390 before socket_id)
        Topology topology = new HwlocXmlTopologyReader(Snapshots.hwlocReading("s390-no-socket-id")).read(0);

        assertThat(topology.packages()).hasSize(8).allSatisfy(cpuPackage -> assertThat(cpuPackage.id()).isEqualTo(-1));
        assertThat(topology.chiplets()).extracting(Chiplet::cpus).containsExactlyElementsOf(topology.packages().stream().map(CpuPackage::cpus).toList());
    }

    @Test
    void hybridRaptorLakeLaptop()
    {
        Topology topology = facts("20em64t-hybrid-1p6c2t+2ca4co1t.xml");

        assertThat(topology.online()).isEqualTo(parseList("0-19"));
        assertThat(topology.allowed()).isEqualTo(parseList("0-19"));
        assertThat(packages(topology)).containsExactly(Map.entry(0, "0-19"));
        assertThat(topology.numaNodes()).singleElement().satisfies(node -> assertThat(node.memoryBytes()).hasValue(33269227520L));
        assertThat(topology.cachesOfLevel(3)).singleElement().satisfies(cache -> {
            assertThat(cache.sizeBytes()).isEqualTo(24 * MIB);
            assertThat(cache.cpus()).isEqualTo(parseList("0-19"));
        });
        // six P-cores with a private 1.25 MiB L2, two E-core modules of four sharing 2 MiB
        assertThat(topology.cachesOfLevel(2).stream().map(cache -> cache.cpus() + "=" + cache.sizeBytes()))
                .containsExactly("0-1=1310720", "2-3=1310720", "4-5=1310720", "6-7=1310720", "8-9=1310720", "10-11=1310720",
                        "12-15=2097152", "16-19=2097152");
        assertThat(topology.cores()).hasSize(14);
        assertThat(topology.cores().getFirst().cpus()).isEqualTo(parseList("0-1"));
        assertThat(topology.cores().getLast().cpus()).isEqualTo(parseList("19"));

        // hwloc lists the E-cores (3.9 GHz) first and the P-cores (5 GHz) last; rank 0 is the most performant
        assertThat(topology.coreKinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, parseList("0-11")),
                new CoreKind(CoreKind.EFFICIENCY, 1, parseList("12-19")));
        assertThat(topology.isHybrid()).isTrue();
        assertThat(topology.cores().stream().filter(core -> core.kind().equals(Optional.of(CoreKind.PERFORMANCE)))).hasSize(6);
        assertThat(topology.cores().stream().filter(core -> core.kind().equals(Optional.of(CoreKind.EFFICIENCY)))).hasSize(8);
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void fourSocketAmdUnderCgroupCpuset()
    {
        Topology topology = facts("32amd64-4s2n4c-cgroup.xml");

        assertThat(topology.online()).isEqualTo(parseList("0-31"));
        assertThat(topology.allowed()).isEqualTo(parseList("0-5"));
        assertThat(packages(topology)).containsExactly(
                Map.entry(0, "0-7"), Map.entry(1, "8-15"), Map.entry(2, "16-23"), Map.entry(3, "24-31"));
        assertThat(topology.numaNodes()).hasSize(8);
        assertThat(topology.numaNodes()).allSatisfy(node -> assertThat(node.cpus()).isEqualTo(CpuSet.range(4 * node.id(), 4 * node.id() + 3)));
        assertThat(topology.numaNode(0).orElseThrow().memoryBytes()).hasValue(17177686016L);
        assertThat(topology.numaNode(1).orElseThrow().memoryBytes()).hasValue(17179869184L);
        assertThat(topology.numaNode(0).orElseThrow().distances()).containsExactly(
                Map.entry(0, 10), Map.entry(1, 16), Map.entry(2, 16), Map.entry(3, 22),
                Map.entry(4, 16), Map.entry(5, 22), Map.entry(6, 16), Map.entry(7, 22));
        assertThat(topology.numaNode(7).orElseThrow().distances()).containsEntry(6, 16).containsEntry(7, 10).containsEntry(0, 22);
        assertThat(topology.cachesOfLevel(3)).hasSize(8).allSatisfy(cache -> assertThat(cache.sizeBytes()).isEqualTo(5240832));
        assertThat(topology.cachesOfLevel(3).stream().map(Cache::cpus))
                .containsExactlyElementsOf(topology.numaNodes().stream().map(NumaNode::cpus).toList());
        assertThat(topology.cores()).hasSize(32);
        assertThat(topology.cores().get(5)).isEqualTo(new Core(0, 1, parseList("5"), Optional.empty()));
        assertThat(topology.coreKinds()).isEmpty();
    }

    @Test
    void hwloc1FormatGivesTheSameFactsAsHwloc2()
    {
        Topology v2 = facts("32amd64-4s2n4c-cgroup.xml");
        Topology v1 = facts("32amd64-4s2n4c-cgroup-v1.xml");

        assertThat(v1.online()).isEqualTo(v2.online());
        assertThat(v1.allowed()).isEqualTo(v2.allowed());
        assertThat(v1.packages()).isEqualTo(v2.packages());
        assertThat(v1.numaNodes()).isEqualTo(v2.numaNodes());
        assertThat(v1.caches()).isEqualTo(v2.caches());
        assertThat(v1.cores()).isEqualTo(v2.cores());
    }

    @Test
    void fourSocketBulldozerWithTwoL3PerPackage()
    {
        Topology topology = facts("64amd64-4s2n4ca2co.xml");

        assertThat(topology.online()).isEqualTo(parseList("0-63"));
        assertThat(packages(topology)).containsExactly(
                Map.entry(0, "0-15"), Map.entry(1, "16-31"), Map.entry(2, "32-47"), Map.entry(3, "48-63"));
        assertThat(topology.numaNodes()).hasSize(8)
                .allSatisfy(node -> assertThat(node.cpus()).isEqualTo(CpuSet.range(8 * node.id(), 8 * node.id() + 7)));
        assertThat(topology.numaNode(5).orElseThrow().memoryBytes()).hasValue(8L * 1024 * MIB);
        assertThat(topology.numaNode(1).orElseThrow().distances().values()).containsExactly(16, 10, 22, 16, 16, 22, 22, 16);
        assertThat(topology.cachesOfLevel(3)).hasSize(8).allSatisfy(cache -> {
            assertThat(cache.sizeBytes()).isEqualTo(6 * MIB);
            assertThat(cache.cpus().size()).isEqualTo(8);
        });
        // two cores of a compute unit share an L2 and their instruction cache
        assertThat(topology.cachesOfLevel(2)).hasSize(32).allSatisfy(cache -> assertThat(cache.cpus().size()).isEqualTo(2));
        assertThat(topology.caches().stream().filter(cache -> cache.type() == CacheType.INSTRUCTION)).hasSize(32);
        assertThat(topology.cores()).hasSize(64).allSatisfy(core -> assertThat(core.cpus().size()).isEqualTo(1));
    }

    @Test
    void dualCascadeLakeSnc2WithMemorySideCaches()
    {
        Topology topology = facts("memorysidecaches.xml");

        assertThat(topology.online()).isEqualTo(parseList("0-79"));
        assertThat(packages(topology)).containsExactly(
                Map.entry(0, everyNth(0, 2, 80)), Map.entry(1, everyNth(1, 2, 80)));
        assertThat(topology.numaNodes()).hasSize(4)
                .allSatisfy(node -> assertThat(node.cpus().toList()).isEqualTo(everyNth(node.id(), 4, 80)));
        assertThat(topology.numaNode(0).orElseThrow().memoryBytes()).hasValue(397816131584L);
        assertThat(topology.numaNode(0).orElseThrow().distances()).containsExactly(
                Map.entry(0, 10), Map.entry(1, 21), Map.entry(2, 11), Map.entry(3, 21));
        // the 96 GiB memory-side caches in front of each node are not CPU caches
        assertThat(topology.caches()).noneMatch(cache -> cache.sizeBytes() > 1024 * MIB);
        assertThat(topology.cachesOfLevel(3)).hasSize(2).allSatisfy(cache -> assertThat(cache.sizeBytes()).isEqualTo(28835840));
        assertThat(topology.cachesOfLevel(3).getFirst().cpus()).isEqualTo(topology.packages().getFirst().cpus());
        assertThat(topology.cores()).hasSize(40).allSatisfy(core -> assertThat(core.cpus().size()).isEqualTo(2));
        assertThat(topology.cores().getFirst().cpus()).isEqualTo(parseList("0,40"));
        // hwloc's memory Groups (kind 1001) are not clusters
        assertThat(topology.clusters()).isEmpty();
    }

    @Test
    void dualHaswellWithOfflineCpusAndOfflineNode()
    {
        Topology topology = facts("offline-cpu0-node0.xml");

        assertThat(topology.present()).isEqualTo(parseList("0-23"));
        assertThat(topology.online()).isEqualTo(parseList("4-20"));
        assertThat(topology.offline()).isEqualTo(parseList("0-3,21-23"));
        assertThat(topology.allowed()).isEqualTo(parseList("4-20"));
        assertThat(packages(topology)).containsExactly(
                Map.entry(0, "4,6,8,10,12,14,16,18,20"), Map.entry(1, "5,7,9,11,13,15,17,19"));
        assertThat(topology.numaNodes()).singleElement().satisfies(node -> {
            assertThat(node.id()).isEqualTo(1);
            assertThat(node.cpus()).isEqualTo(parseList("5,7,9,11,13,15,17,19"));
            assertThat(node.memoryBytes()).hasValue(64L * 1024 * MIB);
        });
        assertThat(topology.cachesOfLevel(3).stream().map(cache -> cache.cpus().toList()))
                .containsExactly("4,6,8,10,12,14,16,18,20", "5,7,9,11,13,15,17,19");
        assertThat(topology.cores()).hasSize(17);
    }

    @Test
    void chipletsOfTheDualEpycAreItsSixteenCcds()
    {
        Topology topology = readWithChiplets("AMD-Zen3-2xEpyc-7763.xml", 0);

        assertThat(topology.chiplets()).hasSize(16).allSatisfy(chiplet -> {
            assertThat(chiplet.cpus().size()).isEqualTo(8);
            assertThat(chiplet.l3Bytes()).isEqualTo(32 * MIB);
            assertThat(chiplet.numaNode()).isZero();
        });
        assertThat(topology.chiplets().stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union)).isEqualTo(topology.online());
    }

    @Test
    void readsA4096CpuMachine(@TempDir Path dir)
            throws IOException
    {
        // 4 packages x 8 L3 x 16 cores x 8 threads, numbered as Linux does: thread t of core c is c + 512 * t
        StringBuilder xml = new StringBuilder("<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\" cpuset=\"" + bitmap(CpuSet.range(0, 4095)) + "\">\n");
        for (int pkg = 0; pkg < 4; pkg++) {
            CpuSet pkgCpus = threadsOfCores(128 * pkg, 128);
            xml.append("<object type=\"Package\" os_index=\"").append(pkg).append("\" cpuset=\"").append(bitmap(pkgCpus)).append("\">\n");
            xml.append("<object type=\"NUMANode\" os_index=\"").append(pkg).append("\" cpuset=\"").append(bitmap(pkgCpus)).append("\" local_memory=\"1099511627776\"/>\n");
            for (int l3 = 0; l3 < 8; l3++) {
                int firstCore = 128 * pkg + 16 * l3;
                xml.append("<object type=\"L3Cache\" cpuset=\"").append(bitmap(threadsOfCores(firstCore, 16))).append("\" cache_size=\"33554432\" depth=\"3\" cache_linesize=\"64\" cache_type=\"0\">\n");
                for (int core = firstCore; core < firstCore + 16; core++) {
                    xml.append("<object type=\"Core\" os_index=\"").append(core % 128).append("\" cpuset=\"").append(bitmap(threadsOfCores(core, 1))).append("\"/>\n");
                }
                xml.append("</object>\n");
            }
            xml.append("</object>\n");
        }
        xml.append("</object>\n</topology>\n");

        Topology topology = new HwlocXmlTopologyReader(write(dir, xml.toString())).readFacts();

        assertThat(topology.online()).isEqualTo(CpuSet.range(0, 4095));
        assertThat(topology.packages()).hasSize(4);
        assertThat(topology.packages().get(3).cpus()).isEqualTo(threadsOfCores(384, 128));
        assertThat(topology.cachesOfLevel(3)).hasSize(32).allSatisfy(cache -> assertThat(cache.cpus().size()).isEqualTo(128));
        assertThat(topology.cores()).hasSize(512).allSatisfy(core -> assertThat(core.cpus().size()).isEqualTo(8));
        assertThat(topology.cores().getLast().cpus().toList()).isEqualTo("511,1023,1535,2047,2559,3071,3583,4095");
        assertThat(topology.numaNode(2).orElseThrow().memoryBytes()).hasValue(1L << 40);
    }

    private static CpuSet threadsOfCores(int firstCore, int count)
    {
        return CpuSet.of(IntStream.range(0, 8).flatMap(thread -> IntStream.range(firstCore, firstCore + count).map(core -> core + 512 * thread)).toArray());
    }

    private static String bitmap(CpuSet cpus)
    {
        return HwlocBitmapTest.hwlocString(cpus.toBitSet());
    }

    @Test
    void readsAHandWrittenFileWithClustersDiesAndForcedEfficiencies(@TempDir Path dir)
            throws IOException
    {
        Path file = write(dir, """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE topology SYSTEM "http://invalid.example/hwloc2.dtd">
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x000000ff" complete_cpuset="0x000000ff" allowed_cpuset="0xf...f">
                    <object type="Package" os_index="3" cpuset="0x000000ff">
                      <object type="NUMANode" os_index="0" cpuset="0x000000ff" local_memory="1024"/>
                      <object type="Die" os_index="1" cpuset="0x000000ff">
                        <object type="Group" subtype="Cluster" cpuset="0x0000000f">
                          <object type="Core" os_index="0" cpuset="0x00000003"><object type="PU" os_index="0" cpuset="0x00000001"/><object type="PU" os_index="1" cpuset="0x00000002"/></object>
                          <object type="Core" os_index="1" cpuset="0x0000000c"><object type="PU" os_index="2" cpuset="0x00000004"/><object type="PU" os_index="3" cpuset="0x00000008"/></object>
                        </object>
                        <object type="Group" subtype="Cluster" cpuset="0x000000f0">
                          <object type="Core" os_index="2" cpuset="0x00000030"><object type="PU" os_index="4" cpuset="0x00000010"/><object type="PU" os_index="5" cpuset="0x00000020"/></object>
                          <object type="Core" os_index="3" cpuset="0x000000c0"><object type="PU" os_index="6" cpuset="0x00000040"/><object type="PU" os_index="7" cpuset="0x00000080"/></object>
                        </object>
                      </object>
                    </object>
                  </object>
                  <cpukind cpuset="0x000000f0" forced_efficiency="2"/>
                  <cpukind cpuset="0x0000000c" forced_efficiency="0"/>
                  <cpukind cpuset="0x00000003" forced_efficiency="1"/>
                </topology>
                """);

        Topology topology = new HwlocXmlTopologyReader(file).readFacts();

        assertThat(topology.allowed()).isEqualTo(parseList("0-7"));
        assertThat(topology.dies()).containsExactly(new Die(3, 1, parseList("0-7")));
        assertThat(topology.clusters()).containsExactly(new Cluster(3, 0, parseList("0-3")), new Cluster(3, 1, parseList("4-7")));
        assertThat(topology.coreKinds()).containsExactly(
                new CoreKind("kind-0", 0, parseList("4-7")),
                new CoreKind("kind-1", 1, parseList("0-1")),
                new CoreKind("kind-2", 2, parseList("2-3")));
        assertThat(topology.cores().stream().map(core -> core.kind().orElseThrow())).containsExactly("kind-1", "kind-2", "kind-0", "kind-0");
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).startsWith("L3 groups:"));
    }

    @Test
    void countsPusOutsideCoresAsCores(@TempDir Path dir)
            throws IOException
    {
        Path file = write(dir, """
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x3">
                    <object type="PU" os_index="0" cpuset="0x1"/>
                    <object type="PU" os_index="1" cpuset="0x2"/>
                  </object>
                </topology>
                """);

        Topology topology = new HwlocXmlTopologyReader(file).readFacts();

        assertThat(topology.cores().stream().map(Core::cpus)).containsExactly(parseList("0"), parseList("1"));
        assertThat(topology.packages()).isEmpty();
        assertThat(topology.numaNodes()).isEmpty();
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).startsWith("cores:").contains("2 PUs"));
    }

    @Test
    void neverResolvesExternalEntities(@TempDir Path dir)
            throws IOException
    {
        Path secret = Files.writeString(dir.resolve("indexes.txt"), "0 1");
        Path file = write(dir, """
                <?xml version="1.0"?>
                <!DOCTYPE topology [ <!ENTITY indexes SYSTEM "%s"> ]>
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x3">
                    <object type="NUMANode" os_index="0" cpuset="0x1"/>
                    <object type="NUMANode" os_index="1" cpuset="0x2"/>
                  </object>
                  <distances2 type="NUMANode" nbobjs="2" kind="5" name="NUMALatency" indexing="os">
                    <indexes length="4">&indexes;</indexes>
                    <u64values length="12">10 20 20 10</u64values>
                  </distances2>
                </topology>
                """.formatted(secret.toUri()));

        // had the entity been expanded, the matrix would be complete and the read would succeed
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(file).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("expected 2 indexes and 4 values in <distances2> of " + file);
    }

    @Test
    void badInputNamesTheFileAndWhatWasExpected(@TempDir Path dir)
            throws IOException
    {
        Path missing = dir.resolve("missing.xml");
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(missing).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("cannot read hwloc XML file " + missing);

        Path notXml = write(dir, "0-3\n");
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(notXml).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("expected hwloc XML in " + notXml + " but line 1 is not well-formed");

        Path wrongRoot = write(dir, "<html/>");
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(wrongRoot).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessage("expected an hwloc topology (root element <topology>) in " + wrongRoot + " but found <html>");

        Path noMachine = write(dir, "<topology/>");
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(noMachine).readFacts())
                .hasMessage("expected the machine's <object> inside <topology> in " + noMachine + " but found none");

        Path garbledCpuset = write(dir, """
                <topology><object type="Machine" cpuset="0x3"><object type="Package" os_index="0" cpuset="0xzz"/></object></topology>
                """);
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(garbledCpuset).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("<object type=\"Package\" os_index=\"0\"> attribute cpuset in " + garbledCpuset)
                .hasMessageContaining("expected an hwloc bitmap");

        Path badSize = write(dir, """
                <topology><object type="Machine" cpuset="0x3"><object type="L3Cache" cpuset="0x3" cache_size="big"/></object></topology>
                """);
        assertThatThrownBy(() -> new HwlocXmlTopologyReader(badSize).readFacts())
                .isInstanceOf(TopologyException.class)
                .hasMessage("expected an integer as attribute cache_size of <object type=\"L3Cache\"> in " + badSize + " but found \"big\"");
    }

    private static Map<Integer, String> packages(Topology topology)
    {
        return topology.packages().stream().collect(toMap(CpuPackage::id, cpuPackage -> cpuPackage.cpus().toList(), (a, _) -> a, LinkedHashMap::new));
    }

    private static String everyNth(int first, int step, int limit)
    {
        return CpuSet.of(IntStream.iterate(first, cpu -> cpu < limit, cpu -> cpu + step).toArray()).toList();
    }

    private static Path write(Path dir, String xml)
            throws IOException
    {
        return Files.writeString(Files.createTempFile(dir, "topology", ".xml"), xml);
    }

    public static Path resource(String name)
    {
        try {
            return Path.of(HwlocXmlTopologyReaderTest.class.getResource("/hwloc-xml/" + name).toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Topology facts(String name)
    {
        return new HwlocXmlTopologyReader(resource(name)).readFacts();
    }

    private static Topology readWithChiplets(String name, int virtualChipletCores)
    {
        return new HwlocXmlTopologyReader(resource(name)).read(virtualChipletCores);
    }
}
