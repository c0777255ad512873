package io.chiplet.trino;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Unpacks the sysfs snapshots under {@code src/test/resources/snapshots} (copied from core's test resources):
 * {@code NAME.tar.bz2} holds a folder {@code NAME} with {@code sys/} and {@code proc/}. Shells out to {@code tar}, as
 * core's tests do, rather than add a compression library for one helper.
 */
public final class TestingSnapshots
{
    /** This machine's two CPUs presented as two chiplets of one CPU each (chiplet 0 = CPU 0, chiplet 1 = CPU 1). */
    public static final String TWO_CPUS_TWO_CHIPLETS = "two-cpus-two-chiplets";

    private TestingSnapshots() {}

    /** Unpacks snapshot {@code name} into {@code target} and returns its root, the folder holding {@code sys/}. */
    public static Path unpack(String name, Path target)
    {
        String resource = "/snapshots/" + name + ".tar.bz2";
        try (InputStream in = TestingSnapshots.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the test class path");
            }
            Path tarball = target.resolve(name + ".tar.bz2");
            Files.copy(in, tarball);
            Process tar = new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", target.toString()).redirectErrorStream(true).start();
            String output = new String(tar.getInputStream().readAllBytes());
            if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
                throw new IllegalStateException("tar xjf " + tarball + " failed: " + output);
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot unpack " + resource, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Path root = target.resolve(name);
        if (!Files.isDirectory(root.resolve("sys"))) {
            throw new IllegalStateException(resource + " did not unpack to " + name + "/sys");
        }
        return root;
    }
}
