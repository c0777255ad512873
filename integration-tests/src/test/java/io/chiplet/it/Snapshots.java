package io.chiplet.it;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * sysfs snapshots copied from core's test resources ({@code src/test/resources/snapshots/NAME.tar.bz2}, each unpacking
 * to a folder {@code NAME} holding {@code sys/} and {@code proc/}), unpacked with {@code tar} as core's own tests do.
 */
final class Snapshots
{
    /** This machine's two CPUs as two chiplets of one L3 each, one NUMA node. */
    static final String TWO_CPUS_TWO_CHIPLETS = "two-cpus-two-chiplets";

    private Snapshots() {}

    /** Unpacks snapshot {@code name} into {@code target}; returns the folder holding sys/, for spark.chiplet.fsRoot. */
    static Path unpack(String name, Path target)
            throws IOException, InterruptedException
    {
        URL url = Snapshots.class.getResource("/snapshots/" + name + ".tar.bz2");
        if (url == null) {
            throw new IllegalStateException("no snapshot " + name + " on the test class path");
        }
        Path tarball;
        try {
            tarball = Path.of(url.toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Process tar = new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", target.toString()).redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes());
        if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
            throw new IllegalStateException("tar xjf " + tarball + " failed: " + output);
        }
        Path root = target.resolve(name);
        if (!Files.isDirectory(root.resolve("sys"))) {
            throw new IllegalStateException(tarball + " did not unpack to " + name + "/sys");
        }
        return root;
    }
}
