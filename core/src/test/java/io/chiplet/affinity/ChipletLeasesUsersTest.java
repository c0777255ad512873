package io.chiplet.affinity;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Live: lease holders running as different Unix users share one lease directory, as executors of different users
 * (YARN containers, Spark jobs of several teams) on one host do. The test runs as root and starts each holder JVM
 * under a throwaway uid with {@code setpriv} (no passwd entry needed); root itself would pass any permission check,
 * so it only sets the stage. Skipped, saying why, when not root or without {@code setpriv}.
 */
class ChipletLeasesUsersTest
{
    private static final int USER_A = 4201;
    private static final int USER_B = 4202;
    private static final int USER_C = 4203;

    /** Like /tmp: world-writable and sticky, outside JUnit's 0700 temporary directory so other users can reach it. */
    private Path shared;
    private Path classPath;
    private final List<Process> children = new ArrayList<>();

    @BeforeEach
    void setUp()
            throws Exception
    {
        assumeTrue(uid(Path.of("/proc/self")) == 0, "needs root to run lease holders as two other Unix users");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) || Files.isExecutable(Path.of("/bin/setpriv")),
                "needs setpriv (util-linux) to run lease holders as other users");
        shared = Files.createTempDirectory(Path.of("/tmp"), "chiplet-users-");
        Files.setAttribute(shared, "unix:mode", 01777);
        // Our classes, copied where other users can read them (the build tree may sit under root's 0700 home).
        classPath = Files.createDirectory(shared.resolve("classes"));
        Files.setAttribute(classPath, "unix:mode", 0755);
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path source = Path.of(entry);
            if (Files.isDirectory(source) && Files.isDirectory(source.resolve("io/chiplet"))) {
                copyReadable(source.resolve("io"), classPath.resolve("io"));
            }
        }
        Process probe = asUser(USER_A, List.of("-version")).redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0, "uid " + USER_A + " cannot run this JDK: " + output);
    }

    @AfterEach
    void tearDown()
            throws IOException
    {
        children.forEach(Process::destroyForcibly);
        if (shared != null) {
            try (Stream<Path> paths = Files.walk(shared)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    @Test
    void twoUsersShareOneDirectoryAndTheirLeasesStayExclusive()
            throws Exception
    {
        Path directory = shared.resolve("chiplet-leases");

        // User A comes first and creates the directory and the files, despite its umask of 077.
        Process first = holder(USER_A, directory, 1);
        assertThat(awaitLeases(first)).containsExactly("LEASED 0 exclusive");
        assertThat(uid(directory)).isEqualTo(USER_A);
        assertThat(mode(directory)).isEqualTo(01777);
        assertThat(mode(directory.resolve("leases.guard"))).isEqualTo(0666);
        assertThat(mode(directory.resolve("chiplet-0.lock"))).isEqualTo(0666);
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.map(file -> file.getFileName().toString())).as("no staging file left").containsExactlyInAnyOrder("leases.guard", "chiplet-0.lock");
        }

        // User B sees A's lease and takes another chiplet.
        Process second = holder(USER_B, directory, 1);
        assertThat(awaitLeases(second)).containsExactly("LEASED 1 exclusive");

        // A's chiplet is free once A is gone, for a third user too, through the files A created.
        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(awaitLeases(holder(USER_C, directory, 1))).containsExactly("LEASED 0 exclusive");
    }

    @Test
    void anUnusableDirectoryIsReportedWithTheReasonAndWhatToChange()
            throws Exception
    {
        // As an older version left it: a 0755 directory of user A with 0644 files.
        Path directory = Files.createDirectory(shared.resolve("old-leases"));
        Files.createFile(directory.resolve("leases.guard"));
        Files.setAttribute(directory.resolve("leases.guard"), "unix:mode", 0644);
        Files.setAttribute(directory.resolve("leases.guard"), "unix:uid", USER_A);
        Files.setAttribute(directory, "unix:mode", 0755);
        Files.setAttribute(directory, "unix:uid", USER_A);

        Process process = holder(USER_B, directory, 1);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isNotZero();
        assertThat(err).contains("cannot open chiplet lease file " + directory.resolve("leases.guard") + ": permission denied (EACCES) for uid " + USER_B
                + "; " + directory.resolve("leases.guard") + ": owner uid " + USER_A + ", mode 644; " + directory + ": owner uid " + USER_A + ", mode 755;"
                + " a shared lease directory must be mode 1777 and its files 0666");
    }

    private ProcessBuilder asUser(int uid, List<String> javaArguments)
    {
        // umask 077, the strictest a user may have: the modes must not depend on it.
        List<String> line = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
                "sh", "-c", "umask 077; exec \"$0\" \"$@\"", ProcessHandle.current().info().command().orElseThrow()));
        line.addAll(javaArguments);
        return new ProcessBuilder(line).directory(shared.toFile());
    }

    private Process holder(int uid, Path directory, int count)
            throws IOException
    {
        Process process = asUser(uid, List.of("-cp", classPath.toString(), LeaseHolderMain.class.getName(), directory.toString(), Integer.toString(count)))
                .start();
        children.add(process);
        return process;
    }

    private static List<String> awaitLeases(Process process)
            throws IOException
    {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> leases = new ArrayList<>();
        for (String line = out.readLine(); line != null && !line.equals("READY"); line = out.readLine()) {
            leases.add(line);
        }
        if (!process.isAlive()) {
            throw new AssertionError("lease holder exited early: " + new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        return leases;
    }

    private static int uid(Path path)
            throws IOException
    {
        return (int) Files.getAttribute(path, "unix:uid");
    }

    private static int mode(Path path)
            throws IOException
    {
        return (int) Files.getAttribute(path, "unix:mode") & 07777;
    }

    private static void copyReadable(Path from, Path to)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(source -> {
                Path target = to.resolve(from.relativize(source).toString());
                try {
                    if (Files.isDirectory(target)) {
                        return; // classes and test-classes both hold io/chiplet
                    }
                    Files.copy(source, target);
                    Files.setAttribute(target, "unix:mode", Files.isDirectory(target) ? 0755 : 0644);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
