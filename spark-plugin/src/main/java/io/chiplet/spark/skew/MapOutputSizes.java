package io.chiplet.spark.skew;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.MapOutputTracker;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.ShuffleStatus;
import org.apache.spark.SparkEnv;
import org.apache.spark.scheduler.MapStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The driver's reading of a finished shuffle's output: the bytes each reduce partition holds, summed over the
 * shuffle's map outputs ({@code MapStatus.getSizeForBlock}), which is how Spark's own
 * {@code MapOutputTrackerMaster.getStatistics} computes the {@code MapOutputStatistics} AQE plans with.
 *
 * <p>Why Spark internals, and only here: Spark has no public API for per-partition shuffle sizes, and
 * {@code getStatistics} wants the {@code ShuffleDependency}, which only the DAG scheduler holds (its maps are not safe
 * to read from another thread); a listener learns a shuffle's id alone. So this reads
 * {@code MapOutputTrackerMaster.shuffleStatuses} (a concurrent map) and {@code ShuffleStatus.withMapStatuses} (under the
 * status's read lock, as {@code getStatistics} does): Scala {@code private[spark]} members, public in bytecode.
 * Checked on Spark 4.2.0 (Scala 2.13). The shuffle's reduce-partition count is not kept there (a
 * {@code ShuffleStatus} records it for push-based shuffle only), so the caller passes it.
 *
 * <p>It runs on the listener bus, which must not stall: a shuffle of more than {@link #MAX_BLOCKS} blocks (map outputs
 * times reduce partitions) is not read, and its readers are sized by their tasks. Spark decodes each log-encoded size
 * with a {@code Math.pow}: 4 million took 140-165 ms on a loaded 2-core VM, so the cap is half that.
 *
 * <p>Any failure, a {@link LinkageError} from another Spark version included, logs one warning and turns this reading
 * off for the application; skew is then measured from task metrics alone, and no job notices.
 */
public final class MapOutputSizes
        implements SkewListener.ShuffleSizes
{
    /** The most blocks one reading adds up: 2,000 map outputs of 1,000 partitions. */
    static final long MAX_BLOCKS = 2_000_000;

    private static final Logger log = LoggerFactory.getLogger(MapOutputSizes.class);

    private final SkewListener.ShuffleSizes reader;
    private final FailOpenGuard guard;

    /** The Spark feature releases whose private map-output tracker this class was checked against. */
    static final List<String> CHECKED_RELEASES = List.of("4.2");

    /**
     * Reads the live driver's map-output tracker where {@code sparkVersion} is a release it was checked on; elsewhere
     * says once that it is off, and reads nothing.
     */
    public static SkewListener.ShuffleSizes forSparkVersion(String sparkVersion)
    {
        if (!checkedOn(sparkVersion)) {
            log.info("Chiplet skew hints do not read map-output sizes on Spark {} (checked on {} only): skew is measured from task metrics alone",
                    sparkVersion, String.join(", ", CHECKED_RELEASES));
            return (shuffleId, partitions) -> Optional.empty();
        }
        return new MapOutputSizes(MapOutputSizes::fromTracker, new FailOpenGuard(log, "the driver's map-output sizes", "skew is measured from task metrics alone"));
    }

    /** Whether {@code sparkVersion} (such as {@code 4.2.1}) is of a release in {@link #CHECKED_RELEASES}. */
    static boolean checkedOn(String sparkVersion)
    {
        return CHECKED_RELEASES.stream().anyMatch(release -> sparkVersion.equals(release) || sparkVersion.startsWith(release + "."));
    }

    MapOutputSizes(SkewListener.ShuffleSizes reader, FailOpenGuard guard)
    {
        this.reader = requireNonNull(reader, "reader is null");
        this.guard = requireNonNull(guard, "guard is null");
    }

    @Override
    public Optional<long[]> bytesByPartition(int shuffleId, int partitions)
    {
        return guard.call("reading map-output sizes", () -> reader.bytesByPartition(shuffleId, partitions), Optional.empty());
    }

    private static Optional<long[]> fromTracker(int shuffleId, int partitions)
    {
        SparkEnv env = SparkEnv.get();
        if (env == null || !(env.mapOutputTracker() instanceof MapOutputTrackerMaster tracker)) {
            return Optional.empty();
        }
        Option<ShuffleStatus> status = tracker.shuffleStatuses().get(shuffleId);
        if (status.isEmpty()) {
            // Cleaned up since (its RDDs were garbage collected), or never registered.
            return Optional.empty();
        }
        return status.get().withMapStatuses(statuses -> sum(statuses, partitions, MAX_BLOCKS));
    }

    /**
     * The bytes of each of the first {@code partitions} reduce partitions over all map outputs; empty when an output
     * is missing (lost with its executor since the stage finished: the sizes would be too small) or there are more
     * than {@code maxBlocks} blocks to add.
     */
    static Optional<long[]> sum(MapStatus[] statuses, int partitions, long maxBlocks)
    {
        if ((long) statuses.length * partitions > maxBlocks) {
            return Optional.empty();
        }
        long[] bytes = new long[partitions];
        for (MapStatus status : statuses) {
            if (status == null) {
                return Optional.empty();
            }
            for (int partition = 0; partition < partitions; partition++) {
                bytes[partition] += status.getSizeForBlock(partition);
            }
        }
        return Optional.of(bytes);
    }
}
