package io.chiplet.it.probe;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The job the spark-submit tests run: {@code N} partitions, each task reads its own thread's
 * {@code Cpus_allowed_list} while it runs and computes a checksum, and the driver prints one machine-readable line
 * per task and one for the job ({@code CHIPLET-PROBE key=value ...}).
 *
 * <p>Compiled by the tests for Java 17 ({@code ProbeJar}) and using only Spark's Java API, so the same jar runs on
 * every Spark from 3.5 (Scala 2.12 or 2.13) on and every JDK from 17 on. Keep it to Java 17 language and library.
 *
 * <p>Arguments: {@code partitions executors [holdFile]}: waits (up to 60 s) for {@code executors} executors before
 * the job; with {@code holdFile}, after the job prints {@code CHIPLET-PROBE holding ui=<url>} and waits (up to
 * 120 s) for that file to appear before stopping, so a test can look at the running application.
 */
public final class Probe
{
    public static final String PREFIX = "CHIPLET-PROBE";

    private Probe() {}

    public static void main(String[] args)
            throws Exception
    {
        int partitions = Integer.parseInt(args[0]);
        int executors = Integer.parseInt(args[1]);
        Path holdFile = args.length > 2 ? Path.of(args[2]) : null;
        SparkConf conf = new SparkConf().setAppName("chiplet-probe");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            // The driver is listed too.
            while (sc.sc().statusTracker().getExecutorInfos().length < executors + 1 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            List<Integer> seeds = IntStream.range(0, partitions).boxed().collect(Collectors.toList());
            List<String> tasks = sc.parallelize(seeds, partitions)
                    .mapPartitionsWithIndex(Probe::task, true)
                    .collect();
            long checksum = 0;
            for (String task : tasks) {
                System.out.println(PREFIX + " task " + task);
                checksum = checksum * 31 + Long.parseLong(task.substring(task.indexOf("sum=") + 4).split(" ")[0]);
            }
            System.out.println(PREFIX + " result partitions=" + tasks.size() + " checksum=" + checksum
                    + " executors=" + (sc.sc().statusTracker().getExecutorInfos().length - 1));
            if (holdFile != null) {
                System.out.println(PREFIX + " holding ui=" + (sc.sc().uiWebUrl().isDefined() ? sc.sc().uiWebUrl().get() : "none"));
                System.out.flush();
                long holdDeadline = System.nanoTime() + 120_000_000_000L;
                while (!Files.exists(holdFile) && System.nanoTime() < holdDeadline) {
                    Thread.sleep(100);
                }
            }
        }
    }

    /** The result line's checksum for {@code partitions} partitions, computed without Spark. */
    public static long expectedChecksum(int partitions)
    {
        long checksum = 0;
        for (int partition = 0; partition < partitions; partition++) {
            checksum = checksum * 31 + work(partition);
        }
        return checksum;
    }

    private static long work(int seed)
    {
        long sum = 0;
        for (long i = 0; i < 200_000; i++) {
            sum += (i * (seed + 1)) % 7919;
        }
        return sum;
    }

    /** One task: sums its seed's numbers, reads its thread's mask mid-task, sleeps so tasks overlap. */
    private static Iterator<String> task(int partition, Iterator<Integer> seeds)
            throws IOException, InterruptedException
    {
        long sum = 0;
        while (seeds.hasNext()) {
            sum += work(seeds.next());
        }
        String status = Files.readString(Path.of("/proc/thread-self/status"));
        Thread.sleep(200);
        String line = "partition=" + partition
                + " executor=" + SparkEnv.get().executorId()
                + " pid=" + ProcessHandle.current().pid()
                + " tid=" + field(status, "Pid")
                + " cpus=" + field(status, "Cpus_allowed_list")
                + " sum=" + sum;
        List<String> out = new ArrayList<>();
        out.add(line);
        return out.iterator();
    }

    /**
     * A SQL function ({@code spark.udf.registerJavaFunction}) that a JVM task thread runs: sums its argument's numbers
     * as {@link #task} does, reads its own thread's status mid-task and answers {@code executor=.. pid=.. tid=..
     * cpus=.. sum=..}, so a PySpark application sees where its JVM task threads ran (its Python workers it sees
     * itself).
     */
    public static final class ThreadCpus
            implements org.apache.spark.sql.api.java.UDF1<Long, String>
    {
        @Override
        public String call(Long seed)
                throws Exception
        {
            long sum = work(seed.intValue());
            String status = Files.readString(Path.of("/proc/thread-self/status"));
            Thread.sleep(200);
            return "executor=" + SparkEnv.get().executorId()
                    + " pid=" + ProcessHandle.current().pid()
                    + " tid=" + field(status, "Pid")
                    + " cpus=" + field(status, "Cpus_allowed_list")
                    + " sum=" + sum;
        }
    }

    private static String field(String status, String name)
    {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        return "?";
    }
}
