package io.chiplet.affinity;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Leases across real JVMs: each child is a separate process holding its locks, as executors on one host are. */
class ChipletLeasesTest
{
    @TempDir
    Path directory;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren()
    {
        children.forEach(Process::destroyForcibly);
    }

    private record Child(Process process, List<String> leases) {}

    private Child startHolder(int count)
            throws IOException
    {
        return awaitLeases(launchHolder(count));
    }

    private Process launchHolder(int count)
            throws IOException
    {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                LeaseHolderMain.class.getName(), directory.toString(), Integer.toString(count))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        children.add(process);
        return process;
    }

    private static Child awaitLeases(Process process)
            throws IOException
    {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> leases = new ArrayList<>();
        for (String line = out.readLine(); line != null && !line.equals("READY"); line = out.readLine()) {
            leases.add(line);
        }
        assertThat(process.isAlive()).as("lease holder exited early").isTrue();
        return new Child(process, List.copyOf(leases));
    }

    @Test
    void jvmsTakeDistinctChipletsAndADeadJvmFreesItsChiplet()
            throws Exception
    {
        Child first = startHolder(1);
        Child second = startHolder(1);
        assertThat(first.leases()).containsExactly("LEASED 0 exclusive");
        assertThat(second.leases()).containsExactly("LEASED 1 exclusive");

        first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        Child third = startHolder(1);
        assertThat(third.leases()).containsExactly("LEASED 0 exclusive");
    }

    @Test
    void jvmsStartingTogetherStillTakeDistinctChiplets()
            throws Exception
    {
        // Launched at once, so their choices overlap in time; the guard lock serialises them.
        List<Process> launched = List.of(launchHolder(1), launchHolder(1), launchHolder(1), launchHolder(1));
        List<String> leases = new ArrayList<>();
        for (Process process : launched) {
            leases.addAll(awaitLeases(process).leases());
        }
        assertThat(leases).containsExactlyInAnyOrder("LEASED 0 exclusive", "LEASED 1 exclusive", "LEASED 2 exclusive", "LEASED 3 exclusive");
    }

    @Test
    void prefersTheFirstChipletsPackage()
            throws Exception
    {
        startHolder(1); // takes chiplet 0 (package 0)
        try (ChipletLeases leases = ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY);
                ChipletLeases.LeaseSet set = leases.acquire(2)) {
            // Lowest free id is 1 (package 1); its package-mate 3 comes before 2.
            assertThat(set.chiplets()).extracting(chiplet -> chiplet.id()).containsExactly(1, 3);
            assertThat(set.anyShared()).isFalse();
            assertThat(leases.holders(0)).isEqualTo(1);
            assertThat(leases.holders(1)).isEqualTo(1);
            assertThat(leases.holders(2)).isZero();
        }
    }

    @Test
    void fullHostSharesTheLeastLoadedChipletAndSaysSo()
            throws Exception
    {
        startHolder(4);
        try (ChipletLeases leases = ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY)) {
            ChipletLeases.LeaseSet set = leases.acquire(1);
            ChipletLease lease = set.leases().getFirst();
            assertThat(lease.chiplet().id()).isZero();
            assertThat(lease.shared()).isTrue();
            assertThat(lease.otherHolders()).isEqualTo(1);
            assertThat(lease.describe()).isEqualTo("chiplet 0 (CPUs 0-7): shared with 1 other holder; every chiplet was leased");
            assertThat(leases.holders(0)).isEqualTo(2);

            // Chiplet 0 now has two holders: the next JVM shares chiplet 1.
            assertThat(startHolder(1).leases()).containsExactly("LEASED 1 shared 1");

            set.close();
            assertThat(leases.holders(0)).isEqualTo(1);
        }
    }

    @Test
    void closingReleasesForOtherJvms()
            throws Exception
    {
        try (ChipletLeases leases = ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY)) {
            ChipletLeases.LeaseSet set = leases.acquire(3);
            assertThat(set.chiplets()).extracting(chiplet -> chiplet.id()).containsExactly(0, 2, 1);
            assertThat(startHolder(1).leases()).containsExactly("LEASED 3 exclusive");
            set.close();
            assertThat(startHolder(2).leases()).containsExactly("LEASED 0 exclusive", "LEASED 2 exclusive");
        }
    }

    @Test
    void oneInstancePerDirectoryPerJvm()
    {
        try (ChipletLeases _ = ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY)) {
            assertThatThrownBy(() -> ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is already open in this JVM");
        }
        // Closed: it may be opened again.
        ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY).close();
    }

    @Test
    void badCountsAreNamed()
    {
        try (ChipletLeases leases = ChipletLeases.open(directory, LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY)) {
            assertThatThrownBy(() -> leases.acquire(5)).hasMessage("expected to lease 1 to 4 chiplets but asked for 5");
            assertThatThrownBy(() -> leases.acquire(0)).hasMessage("expected to lease 1 to 4 chiplets but asked for 0");
        }
    }
}
