package io.chiplet.it;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The sysfs snapshots under {@code src/test/resources/snapshots} ({@code NAME.tar.bz2}, unpacking to a folder
 * {@code NAME} holding {@code sys/} and {@code proc/}). Unpacked with {@code tar xjf}, like chiplet-core's tests do.
 */
final class Snapshot
{
    private Snapshot() {}

    /** Unpacks snapshot {@code name} into {@code target}; returns its filesystem root (the folder holding sys/). */
    static Path unpack(String name, Path target)
            throws IOException, InterruptedException
    {
        URL url = Snapshot.class.getResource("/snapshots/" + name + ".tar.bz2");
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
            throw new IllegalStateException(tarball + " did not unpack to " + root + "/sys");
        }
        return root;
    }
}
