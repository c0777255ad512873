package io.chiplet.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/chiplet} as a new user meets it on a fresh clone, where nothing is built yet: it runs from a copy of the
 * repository's launcher, pom and argument checker whose {@code ./mvnw} only notes that it was called and fails, so
 * each case shows what is said and checked before any build, and that a build is announced with its duration first.
 */
class LauncherScriptTest
{
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String TPCH_ARGUMENTS = "jmh/src/main/java/io/chiplet/jmh/tpch/TpchBenchArguments.java";

    @TempDir
    Path clone;

    private record Run(int status, String out, String err) {}

    @BeforeEach
    void freshClone()
            throws IOException
    {
        try (Stream<Path> files = Files.walk(REPOSITORY.resolve("bin"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                copy(REPOSITORY.relativize(file).toString());
            }
        }
        copy("pom.xml");
        copy(TPCH_ARGUMENTS);
        Path mvnw = Files.writeString(clone.resolve("mvnw"), "#!/bin/sh\necho \"maven ran: $*\" >&2\ntouch \"$(dirname \"$0\")/maven-ran\"\nexit 1\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void demoAndBenchAnswerVersionWithoutBuilding()
            throws Exception
    {
        java.util.regex.Matcher project = java.util.regex.Pattern.compile("<version>([^<]+)</version>").matcher(Files.readString(REPOSITORY.resolve("pom.xml")));
        assertThat(project.find()).isTrue();
        String version = "chiplet " + project.group(1) + "\n";
        for (List<String> args : List.of(List.of("demo", "--version"), List.of("bench", "--version"), List.of("bench", "--tpch-sf", "1", "-V"))) {
            Run run = chiplet(args);
            assertThat(run.status()).as("%s: %s", args, run.err()).isZero();
            assertThat(run.out()).as("%s", args).isEqualTo(version);
            assertThat(run.err()).as("%s", args).isEmpty();
            assertThat(clone.resolve("maven-ran")).as("%s built", args).doesNotExist();
        }
    }

    @Test
    void benchRejectsABadScaleFactorAndAMissingReportRootBeforeBuilding()
            throws Exception
    {
        Run zero = chiplet(List.of("bench", "--tpch-sf", "0"));
        assertThat(zero.status()).isEqualTo(2);
        // Named as the user wrote it, not as --scale-factor 0.0.
        assertThat(zero.err()).isEqualTo("chiplet bench: --tpch-sf 0: expected a positive number up to 100\n");

        Run root = chiplet(List.of("bench", "--trino-tpch-sf", "1", "--root", clone.resolve("nowhere").toString()));
        assertThat(root.status()).isEqualTo(2);
        assertThat(root.err()).isEqualTo("chiplet bench: --root " + clone.resolve("nowhere") + ": expected the project root, whose docs/performance.md"
                + " the report is written into, but " + clone.resolve("nowhere/docs/performance.md") + " does not exist; pass --root DIR or --no-report\n");
        assertThat(clone.resolve("maven-ran")).doesNotExist();
    }

    @Test
    void theFirstBuildIsAnnouncedWithHowLongItTakes()
            throws Exception
    {
        Files.createDirectories(clone.resolve("docs"));
        Files.writeString(clone.resolve("docs/performance.md"), "# Performance\n");
        for (List<String> args : List.of(List.of("topology"), List.of("bench", "--tpch-sf", "0.01", "--root", clone.toString()), List.of("demo"))) {
            Run run = chiplet(args);
            assertThat(run.status()).as("%s", args).isEqualTo(1);
            List<String> lines = run.err().lines().toList();
            assertThat(lines).as("%s", args).hasSizeGreaterThanOrEqualTo(3);
            // Said before Maven runs: what is built, with which command, and how long the first build takes.
            assertThat(lines.get(0)).as("%s", args).startsWith("chiplet: building ").contains("./mvnw -q -B -pl ")
                    .contains("the first build takes a few minutes");
            assertThat(lines.get(1)).as("%s", args).startsWith("maven ran: ");
            assertThat(lines.getLast()).as("%s", args).startsWith("chiplet: building ").endsWith(" failed (see the Maven output above)");
        }
    }

    private void copy(String relative)
            throws IOException
    {
        Path target = clone.resolve(relative);
        Files.createDirectories(target.getParent());
        Files.copy(REPOSITORY.resolve(relative), target, StandardCopyOption.COPY_ATTRIBUTES);
    }

    private Run chiplet(List<String> args)
            throws Exception
    {
        List<String> command = new ArrayList<>();
        command.add(clone.resolve("bin/chiplet").toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(clone.toFile());
        builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        builder.environment().remove("CHIPLET_JAVA_OPTS");
        Path out = clone.resolve("stdout.txt");
        Path err = clone.resolve("stderr.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended", args).isTrue();
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
