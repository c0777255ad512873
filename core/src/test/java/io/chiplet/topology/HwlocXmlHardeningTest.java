package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** hwloc XML that no lstopo writes: negative or missing values, an empty machine, entity tricks (issue 15). */
class HwlocXmlHardeningTest
{
    @TempDir
    Path temp;

    private String reading()
            throws IOException
    {
        return Files.readString(Snapshots.hwlocReading(Snapshots.TWO_CPUS_TWO_CHIPLETS));
    }

    private Topology read(String xml)
            throws IOException
    {
        Path file = temp.resolve("machine.xml");
        Files.writeString(file, xml);
        return new HwlocXmlTopologyReader(file).read(0);
    }

    @Test
    void theUnchangedReadingReads()
            throws IOException
    {
        assertThat(read(reading()).online()).isEqualTo(CpuSet.of(0, 1));
    }

    @Test
    void aNegativeOsIndexIsANamedError()
    {
        assertThatThrownBy(() -> read(reading().replaceFirst("type=\"PU\" os_index=\"1\"", "type=\"PU\" os_index=\"-1\"")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("expected a non-negative index as attribute os_index of <object type=\"PU\" os_index=\"-1\">")
                .hasMessageContaining(temp.resolve("machine.xml").toString());
    }

    @Test
    void aNegativeCacheSizeIsANamedError()
    {
        assertThatThrownBy(() -> read(reading().replaceFirst("cache_size=\"[0-9]+\"", "cache_size=\"-1\"")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("as attribute cache_size of")
                .hasMessageContaining("but found \"-1\"");
    }

    @Test
    void aMachineWithAnEmptyCpusetIsAnError()
    {
        assertThatThrownBy(() -> read(reading().replaceAll("cpuset=\"0x0000000[0-9a-f]\"", "cpuset=\"0x0\"")))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("expected at least one CPU in the cpuset of <object type=\"Machine\"");
    }

    @Test
    void externalEntitiesAreNeverResolved()
            throws IOException
    {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "7");
        String xml = reading().replaceFirst("<!DOCTYPE[^>]*>", "<!DOCTYPE topology [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>")
                .replaceFirst("type=\"PU\" os_index=\"1\"", "type=\"PU\" os_index=\"&x;\"");

        assertThatThrownBy(() -> read(xml)).isInstanceOf(TopologyException.class).hasMessageNotContaining("os_index=\"7\"");
    }

    @Test
    void entityExpansionIsCapped()
    {
        StringBuilder doctype = new StringBuilder("<!DOCTYPE topology [<!ENTITY a0 \"0123456789\">");
        for (int i = 1; i < 10; i++) {
            doctype.append("<!ENTITY a").append(i).append(" \"").append(("&a" + (i - 1) + ";").repeat(10)).append("\">");
        }
        doctype.append("]>");

        assertThatThrownBy(() -> read(reading().replaceFirst("<!DOCTYPE[^>]*>", doctype.toString()).replaceFirst("<info name=\"Backend\"", "<info name=\"&a9;\"")))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("is not well-formed");
    }
}
