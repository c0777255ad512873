package io.chiplet.engine.spark;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class SparkExecutorExpectationTest
{
    @Test
    void localModesExpectTheDriverOrTheirWorkers()
    {
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "local[4]")).executors()).isEqualTo(OptionalInt.of(1));
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "local-cluster[3,1,1024]")).executors()).isEqualTo(OptionalInt.of(3));
    }

    @Test
    void dynamicAllocationExpectsSparksInitialTarget()
    {
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "yarn", "spark.dynamicAllocation.enabled", "true",
                "spark.dynamicAllocation.minExecutors", "2", "spark.dynamicAllocation.initialExecutors", "4", "spark.executor.instances", "3")).executors())
                .isEqualTo(OptionalInt.of(4));
        SparkExecutorExpectation fromZero = SparkExecutorExpectation.of(Map.of("spark.master", "spark://m:7077", "spark.dynamicAllocation.enabled", "true"));
        assertThat(fromZero.executors()).isEmpty();
        assertThat(fromZero.complete(10)).isFalse();
        assertThat(fromZero.describe(2)).startsWith("2 executors (how many to expect is unknown: dynamic allocation");
    }

    @Test
    void standaloneExpectsCoresMaxOverExecutorCoresOrSaysItCannotKnow()
    {
        SparkExecutorExpectation sized = SparkExecutorExpectation.of(Map.of("spark.master", "spark://m:7077", "spark.cores.max", "4", "spark.executor.cores", "1"));
        assertThat(sized.executors()).isEqualTo(OptionalInt.of(4));
        assertThat(sized.complete(3)).isFalse();
        assertThat(sized.complete(4)).isTrue();
        assertThat(sized.describe(3)).isEqualTo("3 of 4 expected executors (spark.cores.max / spark.executor.cores in Standalone)");
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "spark://m:7077", "spark.executor.instances", "2")).executors()).isEmpty();
    }

    @Test
    void yarnAndKubernetesUseInstancesWithSparksDefaultOfTwo()
    {
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "yarn", "spark.executor.instances", "5")).executors()).isEqualTo(OptionalInt.of(5));
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "k8s://https://api:6443")).executors()).isEqualTo(OptionalInt.of(2));
        assertThat(SparkExecutorExpectation.of(Map.of("spark.master", "yarn", "spark.executor.instances", "many")).executors()).isEqualTo(OptionalInt.of(2));
        assertThat(SparkExecutorExpectation.of(Map.of()).executors()).isEmpty();
    }
}
