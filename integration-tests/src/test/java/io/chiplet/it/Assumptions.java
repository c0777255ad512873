package io.chiplet.it;

import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the live-pinning tests need of the machine they run on. */
final class Assumptions
{
    private Assumptions() {}

    /**
     * The CPUs this process may use ({@code Cpus_allowed_list} of {@code /proc/self/status}), as the kernel prints
     * them. The snapshot {@code two-cpus-two-chiplets} describes CPUs 0 and 1: both must be among them.
     */
    static String liveCpusHoldingCpus0And1()
    {
        try {
            for (String line : Files.readString(Path.of("/proc/self/status")).split("\n")) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    String list = line.substring("Cpus_allowed_list:".length()).strip();
                    assumeTrue(CpuSet.parseList(list).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1, which the snapshot describes; allowed here: " + list);
                    return list;
                }
            }
            throw new IllegalStateException("no Cpus_allowed_list in /proc/self/status");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
