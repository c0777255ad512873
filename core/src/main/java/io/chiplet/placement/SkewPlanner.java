package io.chiplet.placement;

import io.chiplet.topology.Chiplet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * The study's skew remedies (§4.5.3: skew-aware resource allocation and adjusting chiplet resources to the data
 * distribution, keeping processing local). A partition larger than one chiplet's fair share of the bytes is heavy and
 * gets several chiplets of its own, and with them their aggregate L3; the rest are placed largest first on the least
 * loaded chiplet (LPT), which also consolidates light partitions onto shared chiplets.
 */
public final class SkewPlanner
{
    /** Where one partition goes. Several chiplets only for a heavy partition; its bytes are split evenly between them. */
    public record PartitionPlacement(int partition, long bytes, List<Integer> chiplets)
    {
        public PartitionPlacement
        {
            chiplets = List.copyOf(chiplets);
        }
    }

    /** The bytes and partitions each chiplet ends up with. */
    public record ChipletLoad(int chiplet, long bytes, List<Integer> partitions)
    {
        public ChipletLoad
        {
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * @param imbalance the most loaded chiplet's bytes over the mean (1.0 is perfect balance)
     */
    public record SkewPlan(SkewAnalysis skew, List<PartitionPlacement> partitions, List<ChipletLoad> chiplets, double imbalance)
    {
        public SkewPlan
        {
            requireNonNull(skew, "skew is null");
            partitions = List.copyOf(partitions);
            chiplets = List.copyOf(chiplets);
        }
    }

    private SkewPlanner() {}

    public static SkewPlan plan(long[] partitionSizes, List<Chiplet> chiplets)
    {
        SkewAnalysis skew = SkewAnalysis.of(partitionSizes);
        requireNonNull(chiplets, "chiplets is null");
        if (chiplets.isEmpty()) {
            throw new IllegalArgumentException("expected at least one chiplet");
        }
        int c = chiplets.size();
        long[] load = new long[c];
        List<List<Integer>> members = new ArrayList<>();
        for (int i = 0; i < c; i++) {
            members.add(new ArrayList<>());
        }
        double fairShare = (double) skew.totalBytes() / c;
        Integer[] order = IntStream.range(0, partitionSizes.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.<Integer>comparingLong(p -> partitionSizes[p]).reversed().thenComparing(p -> p));

        List<PartitionPlacement> placements = new ArrayList<>(Arrays.asList(new PartitionPlacement[partitionSizes.length]));
        boolean[] dedicated = new boolean[c];
        int free = c;
        for (int p : order) {
            long bytes = partitionSizes[p];
            // A heavy partition takes as many whole chiplets as its bytes are fair shares, leaving at least one for the rest.
            int wanted = fairShare > 0 ? (int) Math.min(Math.round(bytes / fairShare), Integer.MAX_VALUE) : 0;
            int take = Math.min(wanted, free - 1);
            if (take >= 2) {
                List<Integer> chosen = new ArrayList<>();
                for (int i = 0; i < c && chosen.size() < take; i++) {
                    if (!dedicated[i]) {
                        dedicated[i] = true;
                        chosen.add(i);
                    }
                }
                free -= take;
                long each = bytes / take;
                for (int k = 0; k < take; k++) {
                    int chiplet = chosen.get(k);
                    load[chiplet] += k == 0 ? bytes - each * (take - 1) : each;
                    members.get(chiplet).add(p);
                }
                placements.set(p, new PartitionPlacement(p, bytes, chosen.stream().map(i -> chiplets.get(i).id()).toList()));
                continue;
            }
            int least = -1;
            for (int i = 0; i < c; i++) {
                if (!dedicated[i] && (least < 0 || load[i] < load[least])) {
                    least = i;
                }
            }
            load[least] += bytes;
            members.get(least).add(p);
            placements.set(p, new PartitionPlacement(p, bytes, List.of(chiplets.get(least).id())));
        }
        List<ChipletLoad> loads = new ArrayList<>();
        long max = 0;
        for (int i = 0; i < c; i++) {
            loads.add(new ChipletLoad(chiplets.get(i).id(), load[i], members.get(i)));
            max = Math.max(max, load[i]);
        }
        double imbalance = skew.totalBytes() == 0 ? 1.0 : max / fairShare;
        return new SkewPlan(skew, placements, loads, imbalance);
    }
}
