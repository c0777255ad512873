package io.chiplet.advice;

import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Engine;
import io.chiplet.engine.Wording;
import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.engine.trino.TrinoSessionSettings;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.placement.Policy;
import io.chiplet.placement.UsableCapacity;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Engine settings for one machine, each with the one-line reason behind it. The chiplet OLAP study's (Fogli et al., PVLDB 2024) best deployment is one worker
 * per chiplet (study §4.2, §4.5.1: the gain peaks when workers equal chiplets), so that is the default worker count.
 */
public final class Advice
{
    /** Spark's plugin class, as the Spark module names it. */
    public static final String SPARK_PLUGIN_CLASS = "io.chiplet.spark.ChipletPlugin";

    private Advice() {}

    /**
     * @param workersPerHost executors (Spark) or Trino worker JVMs on this machine; defaults to one per chiplet
     * @param dataBytes the data a job shuffles, when known; sizes the partition count
     */
    public static List<AdvisedSetting> advise(Engine engine, Topology topology, CpuSet allowed, OptionalInt workersPerHost, OptionalLong dataBytes)
    {
        return advise(engine, topology, allowed, workersPerHost, dataBytes, OptionalInt.empty());
    }

    /**
     * @param workersPerHost executors (Spark) or Trino worker JVMs on this machine; defaults to one per chiplet
     * @param dataBytes the data a job shuffles, when known; sizes the partition count
     * @param hosts the cluster's hosts like this one, when known; Trino's hash partition counts are cluster-wide and
     *         need it (without it the plugin's coordinator sets them per query from the active workers)
     */
    public static List<AdvisedSetting> advise(Engine engine, Topology topology, CpuSet allowed, OptionalInt workersPerHost, OptionalLong dataBytes, OptionalInt hosts)
    {
        requireNonNull(engine, "engine is null");
        requireNonNull(workersPerHost, "workersPerHost is null");
        requireNonNull(hosts, "hosts is null");
        UsableCapacity usable = UsableCapacity.of(topology, allowed);
        int chiplets = usable.chiplets();
        int cores = usable.physicalCores();
        int cpus = usable.cpus();
        if (workersPerHost.isPresent() && workersPerHost.getAsInt() < 1) {
            throw new IllegalArgumentException("workers per host must be positive: " + workersPerHost.getAsInt());
        }
        if (workersPerHost.isPresent() && workersPerHost.getAsInt() > cores) {
            throw new IllegalArgumentException("workers per host: " + workersPerHost.getAsInt() + " is more than this host's " + Wording.count(cores, "physical core")
                    + " (" + Wording.count(cpus, "usable CPU") + "); at most one per core");
        }
        if (hosts.isPresent() && hosts.getAsInt() < 1) {
            throw new IllegalArgumentException("hosts must be positive: " + hosts.getAsInt());
        }
        int workers = workersPerHost(topology, allowed, workersPerHost);
        String workersReason = workersPerHost.isPresent()
                ? "as given; " + (workers == chiplets ? "one per chiplet, the OLAP study's best"
                        : Wording.count(chiplets, "chiplet") + " would give one per chiplet, the OLAP study's best (Fogli et al., PVLDB 2024, §4.2, §4.5.1)")
                : "one per chiplet (" + Wording.count(chiplets, "chiplet") + "): WICP, the OLAP study's best deployment (Fogli et al., PVLDB 2024, §4.2: "
                        + "one worker per chiplet against one per machine on EPYC Milan, SparkSQL and Presto on TPC-H)";
        // One executor per chiplet is the only case where an executor binds itself to one chiplet (mode=executor): it
        // then gets the smallest chiplet's cores, so it fits whichever chiplet it leases. Any other count shares the
        // host by task pinning inside the chiplets each executor leases for its own cores.
        boolean onePerChiplet = workers > 1 && workers == chiplets;
        int smallestChipletCores = usable.smallestChipletCores();
        int coresPerWorker = onePerChiplet ? smallestChipletCores : Math.max(1, cores / workers);
        Policy policy = workers > 1 ? Policy.WICP_MIXED : Policy.AUTO;
        String policyReason = workers > 1
                ? "several workers per host: one chiplet each, taken in turn across packages"
                : "one worker per host: auto picks wicp-local or wicp-mixed from the working set against the L3 sizes (Fogli et al., PVLDB 2024, §4.4)";

        List<AdvisedSetting> settings = new ArrayList<>();
        if (isSpark(engine)) {
            settings.add(new AdvisedSetting("executors per host", Integer.toString(workers), workersReason + "; spark.executor.instances = this x hosts"));
            settings.add(new AdvisedSetting("spark.executor.cores", Integer.toString(coresPerWorker), onePerChiplet
                    ? "the smallest chiplet's " + Wording.count(coresPerWorker, "physical core") + ": each executor leases one chiplet and binds itself there"
                    : Wording.count(cores, "physical core") + " / " + Wording.count(workers, "executor") + " = " + coresPerWorker
                            + (cpus > cores ? " (SMT siblings left to the OS and GC threads)" : "")));
            settings.addAll(SparkPartitionSettings.of(PartitionSizing.of(PartitionBasis.of(topology, allowed), dataBytes)));
            settings.add(new AdvisedSetting("spark.plugins", SPARK_PLUGIN_CLASS, "pins tasks or executors to chiplets and binds their memory to the chiplet's node"));
            settings.add(new AdvisedSetting("spark.chiplet.mode", onePerChiplet ? "executor" : "task", onePerChiplet
                    ? "one executor per chiplet: each leases a chiplet and binds its whole process there"
                    : workers == 1 ? "one executor per host: each task thread is pinned"
                    : workers < chiplets ? "fewer executors (" + workers + ") than chiplets (" + chiplets + "): each executor's cores span several chiplets, "
                            + "which it leases host-wide and pins its task threads within"
                    : "more executors (" + workers + ") than chiplets (" + chiplets + "): executors share chiplets, each pinning its task threads within its lease"));
            settings.add(new AdvisedSetting("spark.chiplet.policy", policy.cliName(), policyReason));
            virtualChipletCores(topology).ifPresent(split -> settings.add(new AdvisedSetting("spark.chiplet.virtualChipletCores", Integer.toString(split), VIRTUAL_REASON)));
            int executorChiplets = onePerChiplet ? 1 : Math.max(1, chiplets / workers);
            settings.add(new AdvisedSetting("skew hint spread", executorChiplets >= 2 ? "up to " + Wording.count(executorChiplets, "chiplet") + " per task" : "no wider spread",
                    executorChiplets >= 2
                            ? "a task of a skewed stage spreads over as many of its executor's chiplets as its input is medians large, at least 2"
                            : "each executor has one chiplet here, so a skewed stage's tasks cannot widen"));
            settings.add(new AdvisedSetting("skew hint consolidate", "1 chiplet per task", "a stage whose every task read less than one chiplet's L3 stays on one chiplet"));
        }
        else {
            settings.add(new AdvisedSetting("workers per host", Integer.toString(workers), workersReason));
            TrinoSessionSettings.TaskConcurrency taskConcurrency = TrinoSessionSettings.taskConcurrency(topology, allowed, workers);
            settings.add(taskConcurrency.setting());
            if (hosts.isPresent()) {
                settings.addAll(TrinoSessionSettings.hashPartitions(Math.multiplyExact(workers, hosts.getAsInt())));
            }
            else {
                settings.add(new AdvisedSetting("note", "hash partitions", TrinoSessionSettings.MIN_HASH_PARTITION_COUNT + " and "
                        + TrinoSessionSettings.MAX_HASH_PARTITION_COUNT + " count the whole cluster's workers: the plugin's coordinator sets them per query "
                        + "from the active workers; --hosts N prints them for N hosts like this one"));
            }
            settings.add(new AdvisedSetting("chiplet.policy", policy.cliName(), policyReason));
            virtualChipletCores(topology).ifPresent(split -> settings.add(new AdvisedSetting("chiplet.virtual-chiplet-cores", Integer.toString(split), VIRTUAL_REASON)));
            // What the coordinator's session defaults make of those values for a query shape with a skew hint.
            settings.addAll(TrinoSessionSettings.skewHintSettings(taskConcurrency.value(),
                    hosts.isPresent() ? Optional.of(TrinoSessionSettings.HashPartitions.of(Math.multiplyExact(workers, hosts.getAsInt()))) : Optional.empty()));
        }
        return List.copyOf(settings);
    }

    /**
     * Spark's advice or Trino's: a switch expression, so that a new {@link Engine} does not compile until each place
     * that asks this (here and in {@link ClusterAdvice}) says what that engine gets.
     */
    static boolean isSpark(Engine engine)
    {
        return switch (engine) {
            case SPARK -> true;
            case TRINO -> false;
        };
    }

    /**
     * The workers per host the advice is for: as given, or one per usable chiplet (the OLAP study's best); the
     * number {@link #advise} prints first.
     */
    public static int workersPerHost(Topology topology, CpuSet allowed, OptionalInt workersPerHost)
    {
        requireNonNull(workersPerHost, "workersPerHost is null");
        return workersPerHost.orElseGet(() -> UsableCapacity.of(topology, allowed).chiplets());
    }

    private static final String VIRTUAL_REASON = "these chiplets are virtual ones of this many cores: the plugin must split the machine alike";

    /**
     * The split that gives {@code topology}'s virtual chiplets, for the plugin to be set to; empty for real chiplets.
     * The largest virtual chiplet's physical cores: every domain is cut into groups of that many, the last one smaller,
     * so splitting again by it gives the same chiplets.
     */
    static OptionalInt virtualChipletCores(Topology topology)
    {
        return topology.chiplets().stream()
                .filter(chiplet -> chiplet.basis() == ChipletBasis.VIRTUAL)
                .mapToInt(chiplet -> physicalCores(topology, chiplet.cpus()))
                .max()
                .stream().filter(cores -> cores > 0).findFirst();
    }

    /** The cores on {@code cpus}, a CPU no core lists counting as one, as the split counts them. */
    private static int physicalCores(Topology topology, CpuSet cpus)
    {
        CpuSet covered = CpuSet.empty();
        int cores = 0;
        for (var core : topology.cores()) {
            if (core.cpus().intersects(cpus)) {
                cores++;
                covered = covered.union(core.cpus());
            }
        }
        return cores + cpus.minus(covered).size();
    }
}
