package io.chiplet.discovery;

import io.chiplet.discovery.TopologyDiscovery.Source;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.HwlocXmlTopologyReader;
import io.chiplet.topology.HwlocXmlTopologyReaderTest;
import io.chiplet.topology.OshiTopologyReader;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologyDiscoveryTest
{
    private static final Path XML = Path.of("/tmp/machine.xml");
    private static final Path SNAPSHOT = Path.of("/tmp/snapshot");

    @Test
    void hwlocXmlWinsWhenGiven()
    {
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.hwlocXml(XML), true)).isEqualTo(new Source.HwlocXml(XML));
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.hwlocXml(XML), false)).isEqualTo(new Source.HwlocXml(XML));
    }

    @Test
    void snapshotIsReadThroughSysfsEvenWithoutLiveSysfs()
    {
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.fsRoot(SNAPSHOT), true)).isEqualTo(new Source.Sysfs(SNAPSHOT));
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.fsRoot(SNAPSHOT), false)).isEqualTo(new Source.Sysfs(SNAPSHOT));
    }

    @Test
    void liveMachineUsesSysfsAtTheRootWhereThereIsOneAndOshiElsewhere()
    {
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.live(), true)).isEqualTo(new Source.Sysfs(Path.of("/")));
        assertThat(TopologyDiscovery.choose(DiscoveryOptions.live(), false)).isEqualTo(new Source.Oshi());
    }

    @Test
    void readersMatchTheirSources()
    {
        assertThat(TopologyDiscovery.reader(new Source.HwlocXml(XML))).isInstanceOf(HwlocXmlTopologyReader.class);
        assertThat(TopologyDiscovery.reader(new Source.Oshi())).isInstanceOf(OshiTopologyReader.class);
    }

    @Test
    void rejectsBothRoots()
    {
        assertThatThrownBy(() -> new DiscoveryOptions(Optional.of(SNAPSHOT), Optional.of(XML), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--fs-root and --hwloc-xml are exclusive");
    }

    @Test
    void rejectsNegativeVirtualChipletCoresNamingTheSetting()
    {
        assertThatThrownBy(() -> DiscoveryOptions.live().withVirtualChipletCores(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--virtual-chiplet-cores must be 0 (off) or a positive number of cores but was -1");
        assertThat(DiscoveryOptions.live().withVirtualChipletCores(4).virtualChipletCores()).isEqualTo(4);
        assertThat(DiscoveryOptions.live().withVirtualChipletCores(0).virtualChipletCores()).isZero();
    }

    @Test
    void aMissingXmlFileIsAClearError()
    {
        Path missing = Path.of("/nonexistent/machine.xml");
        assertThatThrownBy(() -> TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(missing)))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("cannot read hwloc XML file " + missing);
    }

    @Test
    void discoversFromAnHwlocXmlWithVirtualChiplets()
    {
        Path file = HwlocXmlTopologyReaderTest.resource("AMD-Zen3-2xEpyc-7763.xml");
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(file).withVirtualChipletCores(4));
        assertThat(topology.source()).isEqualTo("hwloc-xml:" + file);
        assertThat(topology.chiplets()).hasSize(32).allSatisfy(chiplet -> {
            assertThat(chiplet.basis()).isEqualTo(ChipletBasis.VIRTUAL);
            assertThat(chiplet.cpus().size()).isEqualTo(4);
        });
    }
}
