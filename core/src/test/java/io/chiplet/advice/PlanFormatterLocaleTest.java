package io.chiplet.advice;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code chiplet plan}'s text is the same whatever the JVM's default locale: scripts read it. */
class PlanFormatterLocaleTest
{
    private static final Topology FOUR = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);

    @Test
    void workerNumbersAreAsciiDigitsInAnyLocale()
    {
        WorkerPlacements targets = PlacementPlanner.targets(PlacementDomain.of(FOUR), Policy.WICP_MIXED, 2, MemoryBinding.of(FOUR, true, MemoryKind.DRAM));
        Locale before = Locale.getDefault();
        String text;
        try {
            // Thai digits: String.format without a locale writes worker 1 as "๑".
            Locale.setDefault(Locale.forLanguageTag("th-TH-u-nu-thai"));
            text = PlanFormatter.text(targets);
        }
        finally {
            Locale.setDefault(before);
        }
        assertThat(text).contains(String.format(Locale.ROOT, "%-7s %-8s %-5s %s%n", "1", "1", "-", "4-7"));
        assertThat(text).isEqualTo(PlanFormatter.text(targets));
    }
}
