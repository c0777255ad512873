package io.chiplet.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded jar users put on Spark's class path carries the plugin and chiplet-core, and nothing of the {@code chiplet}
 * command: no {@code io.chiplet.cli} class and no picocli (relocated or not). The CLI is the cli module; a dependency
 * that pulled it (or picocli) back into core or the plugin would ship it to every Spark application again. Neither
 * that jar nor the plain one carries the demo or TPC-H (the demo and tpch modules, issue #34): no class, resource or
 * Maven descriptor of theirs, and no TPC-H generator.
 */
class ShadedPluginJarTest
{
    /** Demo and TPC-H entries: our packages and resources, the modules' Maven descriptors, the io.trino.tpch generator. */
    static final Predicate<String> DEMO_OR_TPCH = name -> name.startsWith("io/chiplet/spark/demo/")
            || name.startsWith("io/chiplet/spark/tpch/")
            || name.startsWith("io/chiplet/tpch/")
            || name.startsWith("io/trino/tpch/")
            || name.startsWith("META-INF/maven/io.chiplet/chiplet-demo/")
            || name.startsWith("META-INF/maven/io.chiplet/chiplet-tpch/")
            || name.startsWith("META-INF/maven/io.trino.tpch/");

    @Test
    void carriesThePluginAndCoreButNoCli()
            throws IOException
    {
        assertThat(entries(ProbeJar.pluginJar()))
                .contains("io/chiplet/spark/ChipletPlugin.class", "io/chiplet/topology/Topology.class", "io/chiplet/topology/CpuSet.class")
                .noneMatch(name -> name.startsWith("io/chiplet/cli/"))
                .noneMatch(name -> name.startsWith("picocli/") || name.startsWith("io/chiplet/shaded/picocli/"))
                .noneMatch(name -> name.startsWith("META-INF/maven/info.picocli/") || name.startsWith("META-INF/maven/io.chiplet/chiplet-cli/"));
    }

    @Test
    void neitherPluginJarCarriesTheDemoOrTpch()
            throws IOException
    {
        Path plain = Path.of(System.getProperty("chiplet.it.plainPluginJar", "target/it-jars/chiplet-spark-plugin.jar"));
        assertThat(plain).as("the plain plugin jar (copied by this module's build)").isRegularFile();
        for (Path jar : List.of(ProbeJar.pluginJar(), plain)) {
            List<String> entries = entries(jar);
            assertThat(entries).as(jar.getFileName().toString()).contains("io/chiplet/spark/ChipletPlugin.class");
            assertThat(entries.stream().filter(DEMO_OR_TPCH).toList()).as("demo or TPC-H entries in %s", jar.getFileName()).isEmpty();
        }
    }

    @Test
    void theFilterFindsDemoAndTpchEntries()
    {
        // the check above can fail: each kind of entry it looks for is recognised, and the plugin's own are not
        assertThat(List.of("io/chiplet/spark/demo/ChipletDemo.class", "io/chiplet/spark/demo/machines/2xepyc7763-nps1.lstopo.xml",
                "io/chiplet/spark/tpch/TpchTables.class", "io/chiplet/tpch/TpchQueries.class", "io/trino/tpch/TpchTable.class",
                "META-INF/maven/io.chiplet/chiplet-demo/pom.xml")).allMatch(DEMO_OR_TPCH);
        assertThat(List.of("io/chiplet/spark/ChipletPlugin.class", "io/chiplet/spark/measure/Foo.class", "io/chiplet/topology/Topology.class"))
                .noneMatch(DEMO_OR_TPCH);
    }

    private static List<String> entries(Path jar)
            throws IOException
    {
        assertThat(Files.isRegularFile(jar)).as("%s exists", jar).isTrue();
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(ZipEntry::getName).toList();
        }
    }
}
