package io.chiplet.topology;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The sysfs snapshots under {@code src/test/resources/snapshots}: {@code NAME.tar.bz2} unpacks to a folder
 * {@code NAME} holding {@code sys/} and {@code proc/}; {@code NAME.lstopo.xml} beside it is hwloc's reading of it
 * ({@code HWLOC_FSROOT=NAME lstopo-no-graphics --whole-system --of xml}). The other modules' tests use this class and
 * the tarballs through core's test jar ({@code chiplet-core:tests}), so {@link #unpack} reads the tarball as a class
 * path resource, which may be inside that jar.
 *
 * <p>Unpacking shells out to {@code tar xjf} rather than adding commons-compress: the reader is Linux-only, every
 * Linux build host has tar and bzip2, and a test dependency for one helper is not worth its weight.
 */
public final class Snapshots
{
    /** This machine's two CPUs presented as two chiplets of one CPU each (chiplet 0 = CPU 0, chiplet 1 = CPU 1). */
    public static final String TWO_CPUS_TWO_CHIPLETS = "two-cpus-two-chiplets";

    private Snapshots() {}

    static Path directory()
    {
        URL url = Snapshots.class.getResource("/snapshots");
        if (url == null) {
            throw new IllegalStateException("no snapshots directory on the test class path");
        }
        try {
            return Path.of(url.toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Names of every snapshot that has hwloc's reading beside it, sorted. */
    static List<String> withHwlocReading()
    {
        try (Stream<Path> files = Files.list(directory())) {
            return files.map(path -> path.getFileName().toString())
                    .filter(name -> name.endsWith(".tar.bz2"))
                    .map(name -> name.substring(0, name.length() - ".tar.bz2".length()))
                    .filter(name -> Files.exists(hwlocReading(name)))
                    .sorted()
                    .toList();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path hwlocReading(String name)
    {
        return directory().resolve(name + ".lstopo.xml");
    }

    /** Unpacks snapshot {@code name} into {@code target} and returns its filesystem root (the folder holding sys/). */
    public static Path unpack(String name, Path target)
    {
        String resource = "/snapshots/" + name + ".tar.bz2";
        try (InputStream in = Snapshots.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the test class path");
            }
            Path tarball = target.resolve(name + ".tar.bz2");
            Files.copy(in, tarball);
            Process tar = new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", target.toString())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(tar.getInputStream().readAllBytes());
            if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
                throw new IllegalStateException("tar xjf " + tarball + " failed: " + output);
            }
            Files.delete(tarball);
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
