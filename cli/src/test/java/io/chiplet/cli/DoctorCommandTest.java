package io.chiplet.cli;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.DiscoveryOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.chiplet.cli.DoctorCommand.Outcome.FAILED;
import static io.chiplet.cli.DoctorCommand.Outcome.OK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DoctorCommandTest
{
    @Test
    void thisJvmUsesFfmAndCanPlace()
    {
        assumeTrue(NativeAccess.isLinux(), "the checks need Linux");
        List<DoctorCommand.Check> checks = DoctorCommand.checks(new DiscoveryOptions(Optional.empty(), Optional.empty(), 0));
        assertThat(checks).extracting(DoctorCommand.Check::name)
                .containsSubsequence("java", "native path", "topology", "pinning", "memory binding", "counters");
        assertThat(check(checks, "native path").detail()).startsWith("ffm (JDK " + Runtime.version().feature());
        assertThat(check(checks, "pinning").outcome()).isEqualTo(OK);
        assertThat(check(checks, "memory binding").outcome()).isEqualTo(OK);
        assertThat(DoctorCommand.placeable(checks)).isTrue();
    }

    @Test
    void aBrokenSnapshotIsAFailedTopologyAndNotPlaceable(@org.junit.jupiter.api.io.TempDir Path empty)
    {
        List<DoctorCommand.Check> checks = DoctorCommand.checks(new DiscoveryOptions(Optional.of(empty), Optional.empty(), 0));
        assertThat(check(checks, "topology").outcome()).isEqualTo(FAILED);
        assertThat(check(checks, "topology").detail()).contains("sys/devices/system/cpu");
        assertThat(DoctorCommand.placeable(checks)).isFalse();
    }

    @Test
    void withASnapshotItSaysWhichFactsAreLive(@org.junit.jupiter.api.io.TempDir Path empty)
    {
        List<DoctorCommand.Check> checks = DoctorCommand.checks(new DiscoveryOptions(Optional.of(empty), Optional.empty(), 0));
        // An empty folder is no snapshot: "sources" must not say ok right after "topology" failed.
        assertThat(check(checks, "sources").outcome()).isEqualTo(FAILED);
        assertThat(check(checks, "sources").detail()).isEqualTo("no topology from the snapshot " + empty
                + " (above); pinning, memory binding and counters probed live on this machine");
    }

    @Test
    void wordsNotRecordsAndPluralsThatAgree()
    {
        assumeTrue(NativeAccess.isLinux(), "the checks need Linux");
        List<DoctorCommand.Check> checks = DoctorCommand.checks(new DiscoveryOptions(Optional.empty(), Optional.empty(), 0));
        assertThat(check(checks, "topology").detail()).matches("(1 chiplet|[0-9]+ chiplets), (1 core|[0-9]+ cores), CPUs .*");
        assertThat(check(checks, "memory binding").detail()).doesNotContain("MemoryPolicy[").contains("(was default (the kernel's");
    }

    @Test
    void javaThatIsNoJdkIsAUsageError()
    {
        for (String notJava : List.of("/bin/true", "/bin/false")) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            picocli.CommandLine cli = ChipletCli.commandLine();
            cli.setOut(new java.io.PrintWriter(out));
            cli.setErr(new java.io.PrintWriter(err));
            assertThat(cli.execute("doctor", "--java", notJava)).as(notJava).isEqualTo(2);
            assertThat(err.toString()).as(notJava).startsWith("chiplet doctor: --java " + notJava + ": expected a JDK 17 or later but " + notJava
                    + " -version names no Java version").hasLineCount(1);
        }
    }

    /** The same CLI on a real JDK 17: the JNA path, and pinning and memory binding work through it. */
    @Test
    void onJdk17TheJnaPathPinsAndBinds()
            throws IOException, InterruptedException
    {
        assumeTrue(NativeAccess.isLinux(), "the checks need Linux");
        Optional<Path> jdk17 = jdk(17);
        assumeTrue(jdk17.isPresent(), "no JDK 17 under /usr/lib/jvm (apt-get install openjdk-17-jdk-headless; .ci/run does)");
        Process process = new ProcessBuilder(jdk17.get().resolve("bin/java").toString(), "-cp", System.getProperty("java.class.path"),
                ChipletCli.class.getName(), "doctor")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output)
                .containsPattern("java +ok +17\\.")
                .containsPattern("native path +ok +jna \\(JDK 17 has no final FFM API")
                .containsPattern("pinning +ok +pinned to each of CPUs .* through jna")
                .containsPattern("memory binding +ok");
    }

    private static DoctorCommand.Check check(List<DoctorCommand.Check> checks, String name)
    {
        return checks.stream().filter(check -> check.name().equals(name)).findFirst().orElseThrow();
    }

    static Optional<Path> jdk(int feature)
            throws IOException
    {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.sorted()
                    .filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> releaseFeature(home) == feature)
                    .findFirst();
        }
    }

    private static int releaseFeature(Path home)
    {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=\"")) {
                    return Integer.parseInt(line.substring("JAVA_VERSION=\"".length()).split("[.\"+-]")[0]);
                }
            }
        }
        catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
