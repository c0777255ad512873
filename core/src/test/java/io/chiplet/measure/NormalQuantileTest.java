package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class NormalQuantileTest
{
    @Test
    void matchesTablesOfTheNormalAndStudentsT()
    {
        assertThat(NormalQuantile.of(0.975)).isCloseTo(1.959964, within(1e-6));
        assertThat(NormalQuantile.of(0.005)).isCloseTo(-2.575829, within(1e-6));
        assertThat(NormalQuantile.student(0.975, 1)).isCloseTo(12.7062, within(1e-3));
        assertThat(NormalQuantile.student(0.975, 2)).isCloseTo(4.3027, within(1e-3));
        assertThat(NormalQuantile.student(0.975, 3)).isCloseTo(3.1824, within(0.03));
        assertThat(NormalQuantile.student(0.975, 5)).isCloseTo(2.5706, within(0.005));
        assertThat(NormalQuantile.student(0.975, 30)).isCloseTo(2.0423, within(1e-4));
        assertThat(NormalQuantile.student(0.999, 20)).isCloseTo(3.5518, within(0.01));
    }
}
