package io.chiplet.trino;

import com.google.inject.Key;
import io.chiplet.topology.Snapshots;
import io.trino.server.PluginInstaller;
import io.trino.server.testing.TestingTrinoServer;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Installs the built zip as an operator does (its folder becomes {@code plugin/chiplet/}) and loads it through
 * Trino's own plugin loading ({@link PluginInstaller#loadPlugins()} over {@code plugin.dir}): every jar of the folder in
 * Trino's plugin class loader, which shows the plugin only the SPI. A jar missing from the zip, a class the plugin
 * takes from the server's class path, a missing service file, or a handle the workers cannot read back fails here.
 */
class PluginZipIT
{
    @Test
    void zipInstalledAsPluginDirectoryLoadsAndPlacesThreads(@TempDir Path temp)
            throws Exception
    {
        // TestingTrinoServer sets plugin.dir, the folder whose subfolders Trino's plugin loading reads, to its base data
        // directory: a folder named plugin holding chiplet/ is the layout of a server installation.
        Path baseDataDir = temp.resolve("plugin");
        Path pluginDirectory = unzipAsPluginDirectory(PluginZip.built(), baseDataDir);
        try (Stream<Path> files = Files.list(pluginDirectory)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .anyMatch(name -> name.startsWith("chiplet-trino-plugin-"))
                    .anyMatch(name -> name.startsWith("io.chiplet_chiplet-core-"));
        }

        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        try (DistributedQueryRunner runner = DistributedQueryRunner.builder(testSessionBuilder().build())
                .setWorkerCount(1)
                .setBaseDataDir(Optional.of(baseDataDir))
                .build()) {
            // What a server does at start: every folder of plugin.dir in Trino's plugin class loader (the SPI and
            // nothing else of the server), the Plugin found through the folder's service file, its handles
            // registered for the JSON wire format. Nothing installs this build's classes from the test class path.
            for (TestingTrinoServer server : runner.getServers()) {
                server.getInstance(Key.get(PluginInstaller.class)).loadPlugins();
            }
            runner.createCatalog("chiplet", "chiplet", Map.of(
                    "chiplet.fs-root", snapshot.toString(),
                    "chiplet.lease-dir", temp.resolve("leases").toString(),
                    "chiplet.rescan-interval", "100ms",
                    // Checks that query threads are placed: no control windows.
                    "chiplet.measure.enabled", "false"));

            MaterializedResult status = runner.execute("SELECT placing, policy, topology_source, problem FROM chiplet.runtime.status");
            assertThat(status.getRowCount()).isEqualTo(runner.getNodeCount());
            assertThat(status.getMaterializedRows()).allSatisfy(row -> {
                assertThat(row.getField(0)).isEqualTo(true);
                assertThat(row.getField(2)).isEqualTo("sysfs:" + snapshot);
                assertThat(row.getField(3)).isNull();
            });
            assertThat(runner.execute("SELECT count(*) FROM chiplet.runtime.topology").getOnlyValue()).isEqualTo(2L * runner.getNodeCount());
            // Runner threads are pinned within a rescan or two of the plugin's start.
            long deadline = System.nanoTime() + 30_000_000_000L;
            long placed = 0;
            while (placed == 0 && System.nanoTime() < deadline) {
                placed = (Long) runner.execute("SELECT count(*) FROM chiplet.runtime.placement").getOnlyValue();
            }
            assertThat(placed).isPositive();
        }
    }

    /** Unzips into {@code plugins/chiplet/}, dropping the zip's own top folder as the install instructions say. */
    private static Path unzipAsPluginDirectory(Path zip, Path plugins)
            throws IOException
    {
        Path target = plugins.resolve("chiplet");
        Files.createDirectories(target);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                String name = entry.getName();
                String inside = name.substring(name.indexOf('/') + 1);
                if (entry.isDirectory() || inside.isEmpty()) {
                    continue;
                }
                assertThat(inside).as("a flat plugin folder").doesNotContain("/");
                copy(in, target.resolve(inside));
            }
        }
        return target;
    }

    private static void copy(InputStream in, Path file)
            throws IOException
    {
        Files.copy(in, file);
    }
}
