package io.chiplet.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded jar users put on Spark's class path carries the plugin and chiplet-core, and nothing of the {@code chiplet}
 * command: no {@code io.chiplet.cli} class and no picocli (relocated or not). The CLI is the cli module; a dependency
 * that pulled it (or picocli) back into core or the plugin would ship it to every Spark application again.
 */
class ShadedPluginJarTest
{
    @Test
    void carriesThePluginAndCoreButNoCli()
            throws IOException
    {
        List<String> entries;
        try (JarFile jar = new JarFile(ProbeJar.pluginJar().toFile())) {
            entries = jar.stream().map(ZipEntry::getName).toList();
        }
        assertThat(entries)
                .contains("io/chiplet/spark/ChipletPlugin.class", "io/chiplet/topology/Topology.class", "io/chiplet/topology/CpuSet.class")
                .noneMatch(name -> name.startsWith("io/chiplet/cli/"))
                .noneMatch(name -> name.startsWith("picocli/") || name.startsWith("io/chiplet/shaded/picocli/"))
                .noneMatch(name -> name.startsWith("META-INF/maven/info.picocli/") || name.startsWith("META-INF/maven/io.chiplet/chiplet-cli/"));
    }
}
