package io.chiplet.spark.executor;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExecutorSlotsTest
{
    @Test
    void localModeCountsItsThreads()
    {
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local[2]"), 16)).isEqualTo(2);
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local[*]"), 16)).isEqualTo(16);
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local"), 16)).isEqualTo(1);
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local[4, 3]"), 16)).isEqualTo(4);
        // local mode ignores spark.executor.cores, as Spark does
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local[3]", "spark.executor.cores", "8"), 16)).isEqualTo(3);
    }

    @Test
    void clusterModeReadsExecutorCoresPerTaskCpus()
    {
        assertThat(ExecutorSlots.of(Map.of("spark.master", "spark://host:7077", "spark.executor.cores", "8"), 64)).isEqualTo(8);
        assertThat(ExecutorSlots.of(Map.of("spark.master", "yarn", "spark.executor.cores", "8", "spark.task.cpus", "2"), 64)).isEqualTo(4);
        // standalone's default: all the worker's cores, here what the executor may use
        assertThat(ExecutorSlots.of(Map.of("spark.master", "spark://host:7077"), 12)).isEqualTo(12);
        // nonsense never yields fewer than one slot
        assertThat(ExecutorSlots.of(Map.of("spark.executor.cores", "1", "spark.task.cpus", "4"), 12)).isEqualTo(1);
        assertThat(ExecutorSlots.of(Map.of("spark.executor.cores", "zero"), 6)).isEqualTo(6);
    }

    @Test
    void anExecutorBackendsCoresArgumentIsWhatTheClusterManagerGaveIt()
    {
        String backend = "org.apache.spark.executor.CoarseGrainedExecutorBackend --driver-url spark://CoarseGrainedScheduler@127.0.0.1:4040 --executor-id 1 --hostname 127.0.0.1 --cores 1 --app-id app-1 --worker-url spark://Worker@127.0.0.1:5000";
        // local-cluster and standalone leave spark.executor.cores unset: the host's CPUs would be wrong
        assertThat(ExecutorSlots.of(Map.of("spark.master", "local-cluster[2,1,1024]"), 16, backend)).isEqualTo(1);
        assertThat(ExecutorSlots.cores(Map.of("spark.master", "yarn", "spark.executor.cores", "8"), 64,
                "org.apache.spark.executor.YarnCoarseGrainedExecutorBackend --cores 4 --app-id application_1")).isEqualTo(4);
        assertThat(ExecutorSlots.backendCores("org.apache.spark.scheduler.cluster.k8s.KubernetesExecutorBackend --cores 3 --app-id x")).hasValue(3);
        // Not an executor backend (local mode's driver JVM), or no number: not read
        assertThat(ExecutorSlots.backendCores("org.apache.spark.deploy.SparkSubmit --cores 3")).isEmpty();
        assertThat(ExecutorSlots.backendCores("org.apache.spark.executor.CoarseGrainedExecutorBackend --cores x")).isEmpty();
        assertThat(ExecutorSlots.backendCores("org.apache.spark.executor.CoarseGrainedExecutorBackend --cores 12")).hasValue(12);
    }
}
