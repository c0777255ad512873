package io.chiplet.jmh.workload;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class KernelsTest
{
    @Test
    void triadComputesBPlusScalarTimesC()
    {
        SplittableRandom random = new SplittableRandom(1);
        double[] b = random.doubles(1000).toArray();
        double[] c = random.doubles(1000).toArray();
        double[] a = new double[1000];

        long bytes = StreamKernels.triad(a, b, c, 3.0);

        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isCloseTo(b[i] + 3.0 * c[i], within(1e-12));
        }
        assertThat(bytes).isEqualTo(24_000);
    }

    @Test
    void copyCopiesAndRejectsMismatchedArrays()
    {
        double[] a = {1, 2, 3};
        double[] c = new double[3];

        assertThat(StreamKernels.copy(a, c)).isEqualTo(48);
        assertThat(c).containsExactly(1, 2, 3);
        assertThatThrownBy(() -> StreamKernels.copy(a, new double[2])).hasMessageContaining("differ in length: 3 and 2");
    }

    @Test
    void hashJoinCountsTheSamePairsAsANestedLoopJoin()
    {
        SplittableRandom random = new SplittableRandom(7);
        long[] build = random.longs(3000, 0, 4000).toArray();
        long[] probe = random.longs(5000, 0, 8000).toArray();
        long expected = naiveJoinCount(build, probe);
        assertThat(expected).isPositive();

        for (int bits : new int[] {0, 1, 4, 9}) {
            PartitionedHashJoin join = new PartitionedHashJoin(build.length, probe.length, bits);
            assertThat(join.joinCount(build, probe)).as("%d partition bits", bits).isEqualTo(expected);
            // scratch and table are reused: a second run must not see the first one's keys
            assertThat(join.joinCount(build, probe)).as("%d partition bits, again", bits).isEqualTo(expected);
        }
    }

    @Test
    void hashJoinHandlesAPartitionLargerThanPlanned()
    {
        long[] build = LongStream.concat(LongStream.generate(() -> 42).limit(40_000), LongStream.range(0, 1000)).toArray();
        long[] probe = {42, 42, 7, -5};
        PartitionedHashJoin join = new PartitionedHashJoin(build.length, probe.length, 2);

        // key 42 appears 40 001 times on the build side; 7 once; -5 never
        assertThat(join.joinCount(build, probe)).isEqualTo(2 * 40_001 + 1);
    }

    @Test
    void hashJoinPlansPartitionsOfAboutEightThousandBuildTuples()
    {
        assertThat(PartitionedHashJoin.partitionBitsFor(1000)).isZero();
        assertThat(PartitionedHashJoin.partitionBitsFor(8192 * 4)).isEqualTo(2);
        assertThat(PartitionedHashJoin.partitionBitsFor(8192 * 5)).isEqualTo(3);
        assertThat(PartitionedHashJoin.partitionBitsFor(Integer.MAX_VALUE)).isEqualTo(16);
    }

    @Test
    void groupBySumsEqualAHashMapsSums()
    {
        SplittableRandom random = new SplittableRandom(3);
        long[] keys = random.longs(20_000, -500, 500).toArray();
        long[] values = random.longs(20_000, 0, 1000).toArray();
        Map<Long, Long> expected = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
            expected.merge(keys[i], values[i], Long::sum);
        }
        LongSumTable table = new LongSumTable(1000);
        table.add(123_456, 99);

        GroupByAggregation.aggregate(keys, values, table);

        assertThat(table.size()).isEqualTo(expected.size());
        expected.forEach((key, sum) -> assertThat(table.get(key)).as("sum of key %d", key).isEqualTo(sum));
        assertThat(table.containsKey(123_456)).as("cleared before aggregating").isFalse();
    }

    @Test
    void tableChecksumDependsOnContentsNotInsertionOrder()
    {
        LongSumTable forward = new LongSumTable(10);
        LongSumTable backward = new LongSumTable(10);
        for (int key = 0; key < 10; key++) {
            forward.add(key, key * 10L);
            backward.add(9 - key, (9 - key) * 10L);
        }
        LongSumTable other = new LongSumTable(10);
        other.add(3, 31);

        assertThat(forward.checksum()).isEqualTo(backward.checksum()).isNotEqualTo(other.checksum());
    }

    @Test
    void tableRejectsTheEmptyMarkerAndOverfilling()
    {
        LongSumTable table = new LongSumTable(2);
        assertThatThrownBy(() -> table.add(Long.MIN_VALUE, 1)).hasMessageContaining("cannot be a key");
        for (int key = 0; key < table.maxEntries(); key++) {
            table.add(key, 1);
        }
        assertThatThrownBy(() -> table.add(-1, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("full");
    }

    @Test
    void scanFilterSumsAndCountsTheQualifyingValues()
    {
        long[] values = new SplittableRandom(5).longs(10_000, 0, 1000).toArray();

        assertThat(ScanFilter.sumWhere(values, 100, 200)).isEqualTo(LongStream.of(values).filter(v -> v >= 100 && v < 200).sum());
        assertThat(ScanFilter.count(values, 100, 200)).isEqualTo(LongStream.of(values).filter(v -> v >= 100 && v < 200).count());
        assertThat(ScanFilter.sumWhere(values, 5, 5)).isZero();
    }

    @Test
    void gupsGeneratorShiftsAndFoldsInThePolynomial()
    {
        assertThat(Gups.next(1)).isEqualTo(2);
        assertThat(Gups.next(0x4000_0000_0000_0000L)).isEqualTo(Long.MIN_VALUE);
        assertThat(Gups.next(Long.MIN_VALUE)).isEqualTo(7);
        assertThat(Gups.next(-1L)).isEqualTo(-2L ^ 7);
    }

    @Test
    void gupsChangesTheTablesXorByTheXorOfTheStream()
    {
        long[] table = LongStream.range(0, 1024).toArray();
        long before = xor(table);
        long seed = Gups.seed(3);
        long streamXor = 0;
        long value = seed;
        for (int i = 0; i < 5000; i++) {
            value = Gups.next(value);
            streamXor ^= value;
        }

        long last = Gups.update(table, seed, 5000);

        assertThat(last).isEqualTo(value);
        assertThat(xor(table)).isEqualTo(before ^ streamXor);
        assertThat(table).isNotEqualTo(LongStream.range(0, 1024).toArray());
    }

    @Test
    void gupsUpdatesTwiceRestoreTheTable()
    {
        long[] table = LongStream.range(0, 4096).toArray();
        Gups.update(table, Gups.seed(0), 10_000);
        Gups.update(table, Gups.seed(0), 10_000);

        assertThat(table).isEqualTo(LongStream.range(0, 4096).toArray());
        assertThatThrownBy(() -> Gups.update(new long[3], 1, 1)).hasMessageContaining("power of two");
    }

    private static long naiveJoinCount(long[] build, long[] probe)
    {
        long count = 0;
        for (long p : probe) {
            for (long b : build) {
                if (b == p) {
                    count++;
                }
            }
        }
        return count;
    }

    private static long xor(long[] values)
    {
        return LongStream.of(values).reduce(0, (x, y) -> x ^ y);
    }
}
