package io.chiplet.jmh;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Full topology discovery (every sysfs file read, chiplets derived) on the largest snapshots we have, in a warm
 * JVM. Target (issue 2): under 5 ms per discovery on 256 CPUs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DiscoveryBenchmark
{
    /**
     * Snapshots bundled as resources: a dual EPYC 7763 in NPS1 and in NPS4 (256 CPUs; NPS4 adds six NUMA nodes to
     * read) and a dual Sapphire Rapids in SNC4 (224 CPUs).
     */
    @Param({"2xepyc7763-nps1", "2xepyc7763-nps4", "2xspr8480-snc4"})
    public String snapshot;

    private Path unpacked;
    private DiscoveryOptions options;

    @Setup(Level.Trial)
    public void unpack()
            throws IOException, InterruptedException
    {
        unpacked = Files.createTempDirectory("chiplet-discovery-bench");
        Path tarball = unpacked.resolve(snapshot + ".tar.bz2");
        try (InputStream in = DiscoveryBenchmark.class.getResourceAsStream("/snapshots/" + snapshot + ".tar.bz2")) {
            if (in == null) {
                throw new IllegalStateException("snapshot resource missing: /snapshots/" + snapshot + ".tar.bz2");
            }
            Files.copy(in, tarball);
        }
        Process tar = new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", unpacked.toString()).inheritIO().start();
        if (tar.waitFor() != 0) {
            throw new IllegalStateException("tar could not unpack " + tarball);
        }
        options = DiscoveryOptions.fsRoot(unpacked.resolve(snapshot));
    }

    @TearDown(Level.Trial)
    public void delete()
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(unpacked)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Benchmark
    public Topology discover()
    {
        return TopologyDiscovery.discover(options);
    }
}
