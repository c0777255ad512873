package io.chiplet.jmh.workload;

/** {@code SELECT count(*), sum(v) WHERE low <= v < high}: a sequential scan with a selective filter. */
public final class ScanFilter
{
    private ScanFilter() {}

    /** @return the sum of the qualifying values; their count is {@link #count}. */
    public static long sumWhere(long[] values, long low, long high)
    {
        long sum = 0;
        for (long value : values) {
            // branch-free so the scan's speed does not depend on the filter's selectivity and branch prediction
            long qualifies = (value >= low ? 1 : 0) & (value < high ? 1 : 0);
            sum += value * qualifies;
        }
        return sum;
    }

    public static long count(long[] values, long low, long high)
    {
        long count = 0;
        for (long value : values) {
            if (value >= low && value < high) {
                count++;
            }
        }
        return count;
    }
}
