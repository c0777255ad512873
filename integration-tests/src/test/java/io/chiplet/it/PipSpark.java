package io.chiplet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A Spark as users install it: {@code pip install pyspark==<version>} into a cache folder outside the repository
 * ({@code ~/.cache/chiplet-it/pyspark-<version>}, or {@code -Dchiplet.it.cache=DIR}), once, then reused by every
 * run. The wheel carries all of Spark: {@code pyspark/bin/spark-submit}, {@code pyspark/jars}, and the Python
 * package itself (with py4j beside it).
 *
 * @param site the pip target: goes on {@code PYTHONPATH} for PySpark
 * @param home {@code site/pyspark}: {@code SPARK_HOME}
 */
record PipSpark(String version, Path site, Path home)
{
    private static final String COMPLETE = ".chiplet-complete";

    PipSpark
    {
        requireNonNull(version, "version is null");
        requireNonNull(site, "site is null");
        requireNonNull(home, "home is null");
    }

    static Path cacheRoot()
    {
        String configured = System.getProperty("chiplet.it.cache");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "chiplet-it");
    }

    /**
     * The pip-installed pyspark {@code version}, installing it first if the cache lacks it. Concurrent test JVMs
     * wait for each other through a file lock; a half-finished install (killed build) is redone.
     *
     * @throws IllegalStateException naming the command and its output when pip fails (no network, no python3)
     */
    static PipSpark install(String version)
    {
        Path site = installed("pyspark", version, "pyspark/bin/spark-submit");
        return new PipSpark(version, site, site.resolve("pyspark"));
    }

    /**
     * {@code pip install --target} of {@code distribution==version} into {@code <cache>/<distribution>-<version>},
     * once: later calls find it complete and return at once. {@code expected} is a file the install must have.
     */
    static Path installed(String distribution, String version, String expected)
    {
        requireNonNull(distribution, "distribution is null");
        requireNonNull(version, "version is null");
        return installedRequirement(distribution + "-" + version, distribution + "==" + version, expected);
    }

    /**
     * The Spark Connect client as users install it, {@code pip install "pyspark[connect]==<version>"}: PySpark with
     * pandas, pyarrow and grpcio, in {@code <cache>/pyspark-connect-<version>}; also the Python environment a Connect
     * server's workers need for pandas UDFs.
     */
    static Path connectClient(String version)
    {
        return installedRequirement("pyspark-connect-" + version, "pyspark[connect]==" + requireNonNull(version, "version is null"), "pandas/__init__.py");
    }

    /** {@code pip install --target <cache>/<name> <requirement>}, once (see {@link #installed(String, String, String)}). */
    static Path installedRequirement(String name, String requirement, String expected)
    {
        Path root = cacheRoot();
        Path site = root.resolve(name);
        try {
            Files.createDirectories(root);
            try (FileChannel lockFile = FileChannel.open(root.resolve(name + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = lockFile.lock()) {
                if (!Files.exists(site.resolve(COMPLETE))) {
                    pipInstall(name, requirement, root, site, expected);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot install " + requirement + " under " + root + ": " + e.getMessage(), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted installing " + requirement, e);
        }
        return site;
    }

    private static void pipInstall(String name, String requirement, Path root, Path site, String expected)
            throws IOException, InterruptedException
    {
        Path staging = root.resolve(name + ".partial");
        deleteTree(staging);
        deleteTree(site);
        String python = System.getProperty("chiplet.it.python", "python3");
        List<String> command = List.of(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input",
                "--target", staging.toString(), requirement);
        Path log = root.resolve(name + ".pip.log");
        System.err.println("chiplet-it: installing " + requirement + " into " + site + " (" + String.join(" ", command) + ")");
        long start = System.nanoTime();
        Process pip = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!pip.waitFor(20, TimeUnit.MINUTES)) {
            pip.descendants().forEach(ProcessHandle::destroyForcibly);
            pip.destroyForcibly();
            throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish in 20 minutes; output in " + log);
        }
        if (pip.exitValue() != 0) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed with exit code " + pip.exitValue() + ":\n" + Files.readString(log));
        }
        if (!Files.exists(staging.resolve(expected))) {
            throw new IllegalStateException(requirement + " installed into " + staging + " has no " + expected);
        }
        Files.writeString(staging.resolve(COMPLETE), requirement + "\n");
        Files.move(staging, site);
        System.err.printf("chiplet-it: %s installed in %d s%n", requirement, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
    }

    private static void deleteTree(Path root)
            throws IOException
    {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
