package io.chiplet.trino;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin zip this build's {@code package} made: what operators unpack into {@code plugin/}. */
final class PluginZip
{
    private PluginZip() {}

    static Path built()
            throws IOException
    {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> zips = files.filter(file -> file.getFileName().toString().matches("chiplet-trino-plugin-.*\\.zip")).toList();
            assertThat(zips).as("the plugin zip built by package").hasSize(1);
            return zips.getFirst();
        }
    }
}
