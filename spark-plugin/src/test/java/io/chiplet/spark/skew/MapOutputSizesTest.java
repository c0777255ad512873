package io.chiplet.spark.skew;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.storage.BlockManagerId;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import scala.Option;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MapOutputSizesTest
{
    private static final BlockManagerId EXECUTOR = BlockManagerId.apply("1", "host-a", 7337, Option.empty());

    @Test
    void sumsEachReducePartitionOverTheMapOutputs()
    {
        MapStatus first = MapStatus.apply(EXECUTOR, new long[] {0, 1000, 100_000}, 1, 0);
        MapStatus second = MapStatus.apply(EXECUTOR, new long[] {0, 3000, 1_000_000}, 2, 0);

        long[] bytes = MapOutputSizes.sum(new MapStatus[] {first, second}, 3, MapOutputSizes.MAX_BLOCKS).orElseThrow();
        // Spark keeps sizes log-encoded, each within 10%.
        assertThat(bytes[0]).isZero();
        assertThat(bytes[1]).isBetween(3600L, 4400L);
        assertThat(bytes[2]).isBetween(990_000L, 1_210_000L);
        // an output lost since the stage finished: the sizes would be short
        assertThat(MapOutputSizes.sum(new MapStatus[] {first, null}, 3, MapOutputSizes.MAX_BLOCKS)).isEmpty();
        // too many blocks to add up on the listener bus
        assertThat(MapOutputSizes.sum(new MapStatus[] {first, second}, 3, 6)).isPresent();
        assertThat(MapOutputSizes.sum(new MapStatus[] {first, second}, 3, 5)).isEmpty();
    }

    @Test
    void withoutASparkDriverThereIsNothingToRead()
    {
        assertThat(MapOutputSizes.forSparkVersion("4.2.0").bytesByPartition(0, 4)).isEmpty();
    }

    @Test
    void onlyCheckedSparkReleasesAreRead()
    {
        assertThat(MapOutputSizes.checkedOn("4.2.0")).isTrue();
        assertThat(MapOutputSizes.checkedOn("4.2.1")).isTrue();
        assertThat(MapOutputSizes.checkedOn("4.20.0")).isFalse();
        assertThat(MapOutputSizes.checkedOn("3.5.9")).isFalse();
        assertThat(MapOutputSizes.forSparkVersion("3.5.9")).isNotInstanceOf(MapOutputSizes.class);
        assertThat(MapOutputSizes.forSparkVersion("4.2.1")).isInstanceOf(MapOutputSizes.class);
    }

    @Test
    void aFailureTurnsTheReadingOffForGood()
    {
        AtomicInteger reads = new AtomicInteger();
        FailOpenGuard guard = new FailOpenGuard(LoggerFactory.getLogger(MapOutputSizesTest.class), "test", "task metrics go on");
        MapOutputSizes sizes = new MapOutputSizes((shuffle, partitions) -> {
            if (reads.incrementAndGet() == 2) {
                throw new NoSuchMethodError("org.apache.spark.ShuffleStatus.withMapStatuses");
            }
            return Optional.of(new long[partitions]);
        }, guard);

        assertThat(sizes.bytesByPartition(0, 2)).hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(0, 0));
        assertThat(sizes.bytesByPartition(0, 2)).isEmpty();
        assertThat(guard.active()).isFalse();
        assertThat(sizes.bytesByPartition(0, 2)).isEmpty();
        assertThat(reads).hasValue(2);
    }
}
