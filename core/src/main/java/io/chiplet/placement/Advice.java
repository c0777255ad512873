package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Engine settings for one machine, each with the one-line reason behind it. The chiplet OLAP study's (Fogli et al., PVLDB 2024) best deployment is one worker
 * per chiplet (study §4.2: WICP speeds SparkSQL up 3.41x and Presto 3.40x over WIM on EPYC Milan; §4.5.1: the gain
 * peaks when workers equal chiplets), so that is the default worker count.
 */
public final class Advice
{
    /** Spark's plugin class, as the Spark module names it. */
    public static final String SPARK_PLUGIN_CLASS = "io.chiplet.spark.ChipletPlugin";

    /** One setting: {@code key=value}, and why. */
    public record Setting(String key, String value, String reason)
    {
        public Setting
        {
            requireNonNull(key, "key is null");
            requireNonNull(value, "value is null");
            requireNonNull(reason, "reason is null");
        }
    }

    public enum Engine
    {
        SPARK, TRINO
    }

    private Advice() {}

    /**
     * @param workersPerHost executors (Spark) or Trino worker JVMs on this machine; defaults to one per chiplet
     * @param dataBytes the data a job shuffles, when known; sizes the partition count
     */
    public static List<Setting> advise(Engine engine, Topology topology, CpuSet allowed, OptionalInt workersPerHost, OptionalLong dataBytes)
    {
        requireNonNull(engine, "engine is null");
        requireNonNull(workersPerHost, "workersPerHost is null");
        UsableTopology usable = UsableTopology.of(topology, allowed);
        int chiplets = usable.localOrder().size();
        int cores = usable.physicalCores();
        int cpus = usable.usable().size();
        if (workersPerHost.isPresent() && workersPerHost.getAsInt() < 1) {
            throw new IllegalArgumentException("workers per host must be positive: " + workersPerHost.getAsInt());
        }
        int workers = workersPerHost.orElse(chiplets);
        String workersReason = workersPerHost.isPresent()
                ? "as given; " + (workers == chiplets ? "one per chiplet, the OLAP study's best" : chiplets + " chiplets would give one per chiplet, the OLAP study's best (Fogli et al., PVLDB 2024, §4.2, §4.5.1)")
                : "one per chiplet (" + chiplets + "): WICP, 3.41x SparkSQL and 3.40x Presto over one worker per machine on EPYC Milan (study §4.2)";
        int coresPerWorker = Math.max(1, cores / workers);
        Policy policy = workers > 1 ? Policy.WICP_MIXED : Policy.AUTO;
        String policyReason = workers > 1
                ? "several workers per host: one chiplet each, taken in turn across packages"
                : "one worker per host: auto picks wicp-local or wicp-mixed from the working set against the L3 sizes (study §4.4)";

        List<Setting> settings = new ArrayList<>();
        if (engine == Engine.SPARK) {
            settings.add(new Setting("executors per host", Integer.toString(workers), workersReason + "; spark.executor.instances = this x hosts"));
            settings.add(new Setting("spark.executor.cores", Integer.toString(coresPerWorker),
                    cores + " physical cores / " + workers + (workers == 1 ? " executor" : " executors") + (cpus > cores ? " (SMT siblings left to the OS and GC threads)" : "")));
            settings.addAll(SparkPartitionSettings.of(PartitionSizing.of(PartitionBasis.of(topology, allowed), dataBytes)));
            settings.add(new Setting("spark.plugins", SPARK_PLUGIN_CLASS, "pins tasks or executors to chiplets and binds their memory to the chiplet's node"));
            settings.add(new Setting("spark.chiplet.mode", workers > 1 ? "executor" : "task",
                    workers > 1 ? "each executor leases a chiplet and binds its whole process there" : "one executor per host: each task thread is pinned"));
            settings.add(new Setting("spark.chiplet.policy", policy.cliName(), policyReason));
        }
        else {
            settings.add(new Setting("workers per host", Integer.toString(workers), workersReason));
            settings.add(TrinoSessionSettings.taskConcurrency(topology, allowed, workers));
            settings.addAll(TrinoSessionSettings.hashPartitions(workers));
            settings.add(new Setting("chiplet.policy", policy.cliName(), policyReason));
        }
        return List.copyOf(settings);
    }
}
