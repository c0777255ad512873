package io.chiplet.spark.placement;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.spark.topology.ExecutorTopologies;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another executor on the same host, as far as leases go: a separate JVM that leases chiplets in a directory and
 * holds them until closed. Leases are per process, so a second lease holder must be a second process.
 */
final class LeaseHolder
        implements AutoCloseable
{
    private final Process process;

    private LeaseHolder(Process process)
    {
        this.process = process;
    }

    /** Starts a JVM that leases {@code count} of {@code chiplets} one-CPU chiplets in {@code directory}. */
    static LeaseHolder start(Path directory, int chiplets, int count)
            throws IOException
    {
        Process process = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                LeaseHolder.class.getName(), directory.toString(), Integer.toString(chiplets), Integer.toString(count))
                .redirectErrorStream(true)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("lease holder's first line").startsWith("leased");
        return new LeaseHolder(process);
    }

    @Override
    public void close()
            throws IOException, InterruptedException
    {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    public static void main(String[] args)
            throws IOException
    {
        List<Chiplet> chiplets = new ArrayList<>();
        for (int id = 0; id < Integer.parseInt(args[1]); id++) {
            chiplets.add(new Chiplet(id, 0, 0, CpuSet.of(id), 0, ChipletBasis.L3));
        }
        try (ChipletLeases leases = ChipletLeases.open(Path.of(args[0]), chiplets, ExecutorTopologies.topology(CpuSet.range(0, chiplets.size() - 1), chiplets));
                ChipletLeases.LeaseSet held = leases.acquire(Integer.parseInt(args[2]))) {
            System.out.println("leased " + held.chiplets().stream().map(Chiplet::id).toList());
            System.out.flush();
            // Hold until the test closes our stdin.
            while (System.in.read() >= 0) {
                // keep reading
            }
        }
    }
}
