package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NotBlank;
import net.jqwik.api.constraints.Size;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Every message the driver and executors exchange decodes to what was encoded, whatever its fields hold. */
class PluginMessagesPropertiesTest
{
    @Property(seed = "20261128")
    void topologyReports(@ForAll String executor, @ForAll String host, @ForAll PlacementMode mode, @ForAll @IntRange(min = 1, max = 4096) int chiplets,
            @ForAll @IntRange(min = 0, max = 100_000) int extraCores, @ForAll @LongRange(min = 0) long coreL3, @ForAll @LongRange(min = 0) long chipletL3,
            @ForAll boolean ownChiplets)
    {
        Assume.that(wellFormed(executor, host));
        TopologyReport report = new TopologyReport(executor, host, mode, new PartitionBasis(chiplets, chiplets + extraCores, coreL3, chipletL3), ownChiplets);
        assertThat(PluginMessages.decode(PluginMessages.encode(report))).isEqualTo(report);
    }

    @Property(seed = "20261128")
    void countsHintsAndRequests(@ForAll String executor, @ForAll long tasks, @ForAll long unplaced, @ForAll long failed, @ForAll @Size(max = 16) Map<Integer, Long> byChiplet,
            @ForAll @Size(max = 16) Map<Integer, @IntRange(min = 1) Integer> stages)
    {
        Assume.that(wellFormed(executor));
        PlacementCounts counts = new PlacementCounts(executor, tasks, unplaced, failed, byChiplet);
        assertThat(PluginMessages.decode(PluginMessages.encode(counts))).isEqualTo(counts);
        assertThat(PluginMessages.decode(PluginMessages.encode(new SpreadHints(stages)))).isEqualTo(new SpreadHints(stages));
        assertThat(PluginMessages.decode(PluginMessages.encode(new SpreadHintRequest(executor)))).isEqualTo(new SpreadHintRequest(executor));
    }

    @Property(seed = "20261128")
    void leaseClaimsAndVerdicts(@ForAll String holder, @ForAll @NotBlank String kernel, @ForAll @NotBlank String directory, @ForAll @Size(max = 16) Set<Integer> chiplets,
            @ForAll @Size(min = 1, max = 8) Set<String> holders, @ForAll boolean firstOnKernel)
    {
        Assume.that(wellFormed(holder, kernel, directory) && holders.stream().allMatch(PluginMessagesPropertiesTest::wellFormed));
        LeaseClaim claim = new LeaseClaim(holder, new LeaseScope(kernel, directory, Path.of("/tmp/chiplet leases", "a,b")), new TreeSet<>(chiplets));
        assertThat(PluginMessages.decode(PluginMessages.encode(claim))).isEqualTo(claim);
        LeaseVerdict verdict = new LeaseVerdict(new TreeSet<>(chiplets), new TreeSet<>(holders), firstOnKernel);
        assertThat(PluginMessages.decode(PluginMessages.encode(verdict))).isEqualTo(verdict);
    }

    // a lone surrogate has no UTF-8 form: executor ids, hosts and directories never hold one
    private static boolean wellFormed(String... texts)
    {
        for (String text : texts) {
            if (text.codePoints().anyMatch(point -> point >= Character.MIN_SURROGATE && point <= Character.MAX_SURROGATE)) {
                return false;
            }
        }
        return true;
    }
}
