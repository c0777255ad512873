package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import oshi.hardware.CentralProcessor.LogicalProcessor;
import oshi.hardware.CentralProcessor.PhysicalProcessor;
import oshi.hardware.CentralProcessor.ProcessorCache;
import oshi.hardware.CentralProcessor.ProcessorCache.Type;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.chiplet.topology.CpuSet.parseList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class OshiTopologyReaderTest
{
    @Test
    @EnabledOnOs(OS.LINUX)
    void agreesWithThisLinuxMachine()
            throws IOException
    {
        Topology topology = new OshiTopologyReader().readFacts();

        CpuSet online = parseList(Files.readString(Path.of("/sys/devices/system/cpu/online")));
        assertThat(topology.source()).isEqualTo("oshi");
        assertThat(topology.online()).isEqualTo(online);
        assertThat(topology.allowed()).isEqualTo(online);
        assertThat(topology.cores().stream().map(Core::cpus).reduce(CpuSet.empty(), CpuSet::union)).isEqualTo(online);
        assertThat(topology.cores()).hasSize(distinct(online, "topology/physical_package_id", "topology/core_id"));
        assertThat(topology.packages()).hasSize(distinct(online, "topology/physical_package_id"));
        assertThat(topology.numaNodes()).isNotEmpty();
        assertThat(topology.numaNodes().stream().map(NumaNode::cpus).reduce(CpuSet.empty(), CpuSet::union)).isEqualTo(online);
        assertThat(topology.caches()).isEmpty();
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).startsWith("L3 groups: oshi does not report which CPUs share an L3"));
    }

    @Test
    void mapsAHybridMachine()
    {
        // four P-core threads on two cores (efficiency class 1), two single-threaded E-cores (class 0)
        List<LogicalProcessor> logical = List.of(
                new LogicalProcessor(0, 0, 0, 0),
                new LogicalProcessor(1, 0, 0, 0),
                new LogicalProcessor(2, 1, 0, 0),
                new LogicalProcessor(3, 1, 0, 0),
                new LogicalProcessor(4, 8, 0, 0),
                new LogicalProcessor(5, 9, 0, 0));
        List<PhysicalProcessor> physical = List.of(
                new PhysicalProcessor(0, 0, 1, "P"),
                new PhysicalProcessor(0, 1, 1, "P"),
                new PhysicalProcessor(0, 8, 0, "E"),
                new PhysicalProcessor(0, 9, 0, "E"));
        List<ProcessorCache> caches = List.of(new ProcessorCache(3, 12, 64, 25165824L, Type.UNIFIED));

        Topology topology = OshiTopologyReader.facts(logical, physical, caches);

        assertThat(topology.online()).isEqualTo(parseList("0-5"));
        assertThat(topology.packages()).containsExactly(new CpuPackage(0, parseList("0-5")));
        assertThat(topology.cores()).containsExactly(
                new Core(0, 0, parseList("0-1"), Optional.of(CoreKind.PERFORMANCE)),
                new Core(0, 1, parseList("2-3"), Optional.of(CoreKind.PERFORMANCE)),
                new Core(0, 8, parseList("4"), Optional.of(CoreKind.EFFICIENCY)),
                new Core(0, 9, parseList("5"), Optional.of(CoreKind.EFFICIENCY)));
        assertThat(topology.coreKinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, parseList("0-3")),
                new CoreKind(CoreKind.EFFICIENCY, 1, parseList("4-5")));
        assertThat(topology.unknowns()).anySatisfy(line -> assertThat(line).contains("L3 unified 25165824 bytes").contains("not which CPUs share"));
    }

    @Test
    void mapsTwoPackagesAndTwoNumaNodesWithoutKinds()
    {
        List<LogicalProcessor> logical = IntStream.range(0, 8)
                .mapToObj(cpu -> new LogicalProcessor(cpu, cpu % 4, cpu / 4, cpu / 4))
                .toList();
        List<PhysicalProcessor> physical = IntStream.range(0, 8)
                .mapToObj(cpu -> new PhysicalProcessor(cpu / 4, cpu % 4))
                .toList();

        Topology topology = OshiTopologyReader.facts(logical, physical, List.of());

        assertThat(topology.packages()).containsExactly(new CpuPackage(0, parseList("0-3")), new CpuPackage(1, parseList("4-7")));
        assertThat(topology.numaNodes()).extracting(NumaNode::id, NumaNode::cpus)
                .containsExactly(tuple(0, parseList("0-3")), tuple(1, parseList("4-7")));
        assertThat(topology.numaNodes()).allSatisfy(node -> {
            assertThat(node.memoryBytes()).isEmpty();
            assertThat(node.distances()).isEmpty();
        });
        assertThat(topology.cores()).hasSize(8);
        assertThat(topology.coreKinds()).isEmpty();
        assertThat(topology.cores()).allSatisfy(core -> assertThat(core.kind()).isEmpty());
    }

    @Test
    void numbersProcessorsAcrossWindowsProcessorGroups()
    {
        // two groups of two, each numbered from 0 within its group
        List<LogicalProcessor> logical = List.of(
                new LogicalProcessor(0, 0, 0, 0, 0),
                new LogicalProcessor(1, 1, 0, 0, 0),
                new LogicalProcessor(0, 2, 0, 0, 1),
                new LogicalProcessor(1, 3, 0, 0, 1));

        Topology topology = OshiTopologyReader.facts(logical, List.of(), List.of());

        assertThat(topology.online()).isEqualTo(parseList("0-3"));
        assertThat(topology.cores()).extracting(Core::coreId).containsExactly(0, 1, 2, 3);
    }

    @Test
    void rejectsAnEmptyProcessorList()
    {
        assertThatThrownBy(() -> OshiTopologyReader.facts(List.of(), List.of(), List.of()))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("at least one logical processor");
    }

    private static int distinct(CpuSet cpus, String... files)
    {
        return (int) cpus.stream()
                .mapToObj(cpu -> {
                    StringBuilder key = new StringBuilder();
                    for (String file : files) {
                        try {
                            key.append(Files.readString(Path.of("/sys/devices/system/cpu/cpu" + cpu, file)).strip()).append('/');
                        }
                        catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    return key.toString();
                })
                .distinct()
                .count();
    }
}
