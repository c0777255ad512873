package io.chiplet.placement;

import io.chiplet.placement.SkewRule.StageHint;
import io.chiplet.placement.SkewRule.StageInputs;
import io.chiplet.placement.SkewRule.Thresholds;
import org.junit.jupiter.api.Test;

import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SkewRuleTest
{
    private static final long L3 = 32L << 20;
    private static final Thresholds BELOW_L3 = Thresholds.DEFAULT.withConsolidateBelowBytes(L3);

    @Test
    void skewedStageSpreadsAsWideAsItsLargestTaskIsMediansLarge()
    {
        StageInputs stage = StageInputs.ofBytes(new long[] {10, 10, 10, 30, 10});
        assertThat(SkewRule.hint(stage, BELOW_L3, 8)).isEqualTo(new StageHint(SkewHint.SPREAD, 3));
        // never wider than the chiplets there are, never narrower than 2
        assertThat(SkewRule.hint(stage, BELOW_L3, 2)).isEqualTo(new StageHint(SkewHint.SPREAD, 2));
        assertThat(SkewRule.hint(StageInputs.ofBytes(new long[] {10, 10, 21}), BELOW_L3, 8).chiplets()).isEqualTo(3);
        // one chiplet: still skewed, but nothing to spread a task over; and it does not consolidate either
        StageHint single = SkewRule.hint(stage, BELOW_L3, 1);
        assertThat(single.hint()).isEqualTo(SkewHint.SPREAD);
        assertThat(single.chipletSpread()).isEmpty();
        // all input in one task: as wide as there are chiplets
        assertThat(SkewRule.hint(StageInputs.ofBytes(new long[] {0, 0, 0, 100}), BELOW_L3, 6)).isEqualTo(new StageHint(SkewHint.SPREAD, 6));
    }

    @Test
    void evenStageBelowTheBoundConsolidates()
    {
        StageInputs stage = StageInputs.ofBytes(new long[] {1000, 1100, 900, 1000});
        StageHint hint = SkewRule.hint(stage, BELOW_L3, 4);
        assertThat(hint).isEqualTo(new StageHint(SkewHint.CONSOLIDATE, 1));
        assertThat(hint.chipletSpread()).isEqualTo(OptionalInt.of(1));
        // bound unknown (0), or a task at or above it: the engine's own policy holds
        assertThat(SkewRule.hint(stage, BELOW_L3.withConsolidateBelowBytes(0), 4)).isEqualTo(new StageHint(SkewHint.NONE, 0));
        assertThat(SkewRule.hint(stage, BELOW_L3.withConsolidateBelowBytes(1100), 4).hint()).isEqualTo(SkewHint.NONE);
        assertThat(SkewRule.hint(stage, BELOW_L3.withConsolidateBelowBytes(1101), 4).hint()).isEqualTo(SkewHint.CONSOLIDATE);
        assertThat(SkewRule.hint(stage, BELOW_L3, 4).chipletSpread()).hasValue(1);
        assertThat(new StageHint(SkewHint.NONE, 0).chipletSpread()).isEmpty();
    }

    @Test
    void rowsOnlyNeverConsolidate()
    {
        SkewAnalysis even = SkewAnalysis.of(new long[] {100, 100, 100, 100});
        assertThat(SkewRule.hint(new StageInputs(even, OptionalLong.empty(), OptionalLong.empty()), BELOW_L3, 4).hint()).isEqualTo(SkewHint.NONE);
        SkewAnalysis skewed = SkewAnalysis.of(new long[] {100, 100, 100, 400});
        assertThat(SkewRule.hint(new StageInputs(skewed, OptionalLong.empty(), OptionalLong.empty()), BELOW_L3, 8)).isEqualTo(new StageHint(SkewHint.SPREAD, 4));
    }

    @Test
    void skewOnFewRowsDoesNotMatterButThinTasksConsolidate()
    {
        SkewAnalysis skewed = SkewAnalysis.of(new long[] {2_800, 100, 100});
        StageInputs few = new StageInputs(skewed, OptionalLong.of(3_000), OptionalLong.of(22_400));
        assertThat(SkewRule.hint(few, Thresholds.DEFAULT, 1).hint()).isEqualTo(SkewHint.CONSOLIDATE);
        StageInputs many = new StageInputs(skewed, OptionalLong.of(30_000), OptionalLong.of(22_400));
        assertThat(SkewRule.hint(many, Thresholds.DEFAULT, 1).hint()).isEqualTo(SkewHint.SPREAD);
        // a small skewed stage with large tasks: neither
        StageInputs wide = new StageInputs(skewed, OptionalLong.of(3_000), OptionalLong.of(2L << 20));
        assertThat(SkewRule.hint(wide, Thresholds.DEFAULT, 1).hint()).isEqualTo(SkewHint.NONE);
    }

    @Test
    void thresholdsDecide()
    {
        SkewAnalysis skew = SkewAnalysis.of(new long[] {54_000, 3_000, 3_000, 2_000, 4_000});
        StageInputs stage = new StageInputs(skew, OptionalLong.of(66_000), OptionalLong.of(10L << 20));
        assertThat(SkewRule.hint(stage, Thresholds.DEFAULT, 1).hint()).isEqualTo(SkewHint.SPREAD);
        assertThat(SkewRule.hint(stage, new Thresholds(20, 10_000, 1), 1).hint()).isEqualTo(SkewHint.NONE);
        assertThat(SkewRule.hint(stage, new Thresholds(2, 100_000, 1), 1).hint()).isEqualTo(SkewHint.NONE);
        assertThatThrownBy(() -> new Thresholds(1.0, 0, 0)).hasMessageContaining("above 1");
        assertThatThrownBy(() -> new Thresholds(2.0, -1, 0)).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> SkewRule.hint(stage, Thresholds.DEFAULT, 0)).hasMessageContaining("maxChiplets");
    }

    @Test
    void hintNamesRoundTrip()
    {
        for (SkewHint hint : SkewHint.values()) {
            assertThat(SkewHint.fromConfigName(hint.configName())).isEqualTo(hint);
        }
        assertThat(SkewHint.SPREAD.configName()).isEqualTo("spread");
        assertThat(SkewHint.fromConfigName("sideways")).isEqualTo(SkewHint.NONE);
    }
}
