package io.chiplet.trino;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static java.nio.file.Files.newInputStream;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin folder operators unpack into Trino's {@code plugin/} carries chiplet-core but nothing of the {@code chiplet}
 * command: no chiplet-cli or picocli jar, and no {@code io.chiplet.cli} or picocli class inside any of its jars.
 */
class PluginZipCarriesNoCliIT
{
    @Test
    void pluginFolderCarriesCoreButNoCli()
            throws IOException
    {
        List<String> jars = new ArrayList<>();
        List<String> classes = new ArrayList<>();
        try (ZipInputStream zip = new ZipInputStream(newInputStream(PluginZip.built()))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                String name = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
                if (name.endsWith(".jar")) {
                    jars.add(name);
                    classes.addAll(entries(zip));
                }
            }
        }
        assertThat(jars)
                .anyMatch(name -> name.startsWith("io.chiplet_chiplet-core-"))
                .noneMatch(name -> name.contains("chiplet-cli"))
                .noneMatch(name -> name.contains("picocli"));
        assertThat(classes)
                .contains("io/chiplet/topology/Topology.class", "io/chiplet/trino/ChipletTrinoPlugin.class")
                .noneMatch(name -> name.startsWith("io/chiplet/cli/"))
                .noneMatch(name -> name.startsWith("picocli/"));
    }

    /** The entry names of the jar the zip stream is positioned on (read without closing the zip). */
    private static List<String> entries(InputStream jar)
            throws IOException
    {
        List<String> names = new ArrayList<>();
        ZipInputStream in = new ZipInputStream(jar);
        for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
            names.add(entry.getName());
        }
        return names;
    }
}
