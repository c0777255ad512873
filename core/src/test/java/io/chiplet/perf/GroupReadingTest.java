package io.chiplet.perf;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

class GroupReadingTest
{
    @Property(seed = "20261128")
    void scalingNeverShrinksACountAndIsExactWithoutMultiplexing(
            @ForAll @LongRange(min = 0, max = 1L << 40) long raw,
            @ForAll @LongRange(min = 1, max = 1L << 40) long running,
            @ForAll @LongRange(min = 0, max = 1L << 20) long extraEnabled)
    {
        long enabled = running + extraEnabled;
        long scaled = GroupReading.scale(raw, enabled, running);
        assertThat(scaled).isGreaterThanOrEqualTo(raw);
        if (extraEnabled == 0) {
            assertThat(scaled).isEqualTo(raw);
        }
        // the extrapolation is raw * enabled / running, to rounding
        assertThat((double) scaled).isCloseTo((double) raw * enabled / running, offset(Math.max(1.0, raw * 1e-12 * enabled / running)));
    }

    @Property(seed = "20261128")
    void aGroupThatNeverRanCountsNothing(@ForAll @LongRange(min = 0) long raw, @ForAll @LongRange(min = 0) long enabled)
    {
        assertThat(GroupReading.scale(raw, enabled, 0)).isZero();
    }

    @Property(seed = "20261128")
    void readingsAreIsolatedFromTheCallersArray(@ForAll long value)
    {
        long[] values = {value};
        GroupReading reading = new GroupReading(List.of(EventCatalog.TASK_CLOCK), values, 10, 10);
        values[0] = value + 1;
        assertThat(reading.raw(0)).isEqualTo(value);
        assertThat(reading.multiplexed()).isFalse();
    }

    @Property(tries = 10, seed = "20261128")
    void valueCountMustMatchTheEvents(@ForAll @LongRange(min = 0, max = 100) long enabled)
    {
        assertThatThrownBy(() -> new GroupReading(List.of(EventCatalog.TASK_CLOCK), new long[] {1, 2}, enabled, enabled))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("read returned 2 values for 1 events");
    }
}
