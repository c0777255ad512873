package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class SysfsFilesTest
{
    @TempDir
    Path temp;

    /**
     * The native reads (where the JVM allows them) and java.nio must answer alike for every file, directory and missing
     * name of a real snapshot, in sys/ and proc/, errors included: discovery's results must not depend on which read.
     */
    @Test
    void nativeAndJavaNioReadsAgreeOnEveryPathOfASnapshot()
            throws IOException
    {
        Path root = Snapshots.unpack("32amd64-4s2n4c-cgroup", temp);
        List<String> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(path -> !path.equals(root)).forEach(path -> {
                String relative = root.relativize(path).toString();
                paths.add(relative);
                paths.add(relative + "/missing");
            });
        }
        paths.addAll(List.of("sys/devices/system/cpu/cpu99/online", "sys/devices/system/cpu/cpu0//online", "sys/devices/system/cpu/", "proc/"));
        assertThat(paths).hasSizeGreaterThan(1000);

        try (SysfsFiles fast = SysfsFiles.openNative(root); SysfsFiles javaNio = new SysfsFiles(root)) {
            for (String path : paths) {
                assertThat(answer(fast, path)).as(path).isEqualTo(answer(javaNio, path));
            }
        }
    }

    @Test
    void aMissingRootReadsNothing()
    {
        try (SysfsFiles files = SysfsFiles.open(temp.resolve("missing"))) {
            assertThat(files.read("sys/devices/system/cpu/online")).isEmpty();
        }
    }

    private static String answer(SysfsFiles files, String path)
    {
        try {
            Optional<String> text = files.read(path);
            return text.map(value -> "text: " + value).orElse("missing");
        }
        catch (TopologyException e) {
            return "error: " + e.getMessage();
        }
    }
}
