package io.chiplet.jmh.tpch;

import io.chiplet.jmh.tpch.ResultFingerprints.Fingerprint;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultFingerprintsTest
{
    private static final List<List<?>> ROWS = List.of(
            List.of("A", "F", new BigDecimal("3774200.00"), 1478493L),
            List.of("N", "O", new BigDecimal("7459297.00"), 2920374L),
            Arrays.asList("R", null, LocalDate.of(1998, 12, 1), 0L));

    @Test
    void theSameRowsInAnyOrderGiveTheSameFingerprint()
    {
        Fingerprint fingerprint = Fingerprint.of(ROWS);

        assertThat(fingerprint.rows()).isEqualTo(3);
        assertThat(Fingerprint.of(List.of(ROWS.get(2), ROWS.get(0), ROWS.get(1)))).isEqualTo(fingerprint);
        assertThat(Fingerprint.of(List.of())).isEqualTo(new Fingerprint(0, 0));
    }

    @Test
    void aChangedValueOrAMissingRowChangesIt()
    {
        Fingerprint fingerprint = Fingerprint.of(ROWS);

        assertThat(Fingerprint.of(List.of(ROWS.get(0), ROWS.get(1), Arrays.asList("R", null, LocalDate.of(1998, 12, 2), 0L)))).isNotEqualTo(fingerprint);
        // A decimal of another scale prints differently: Trino's result types keep their scale.
        assertThat(Fingerprint.of(List.of(List.of(new BigDecimal("1.0"))))).isNotEqualTo(Fingerprint.of(List.of(List.of(new BigDecimal("1.00")))));
        // Two equal rows do not cancel each other out, as an exclusive-or of their hashes would.
        assertThat(Fingerprint.of(List.of(ROWS.get(0), ROWS.get(0)))).isNotEqualTo(Fingerprint.of(List.of()));
        assertThat(Fingerprint.of(ROWS.subList(0, 2)).checksum()).isNotEqualTo(fingerprint.checksum());
    }

    @Test
    void aLaterRunThatDiffersFailsNamingBothRuns()
    {
        ResultFingerprints results = new ResultFingerprints();
        Fingerprint fingerprint = Fingerprint.of(ROWS);
        results.check(1, "the warm-up", fingerprint);
        results.check(1, "a round with the plugin off", fingerprint);
        results.check(6, "a round with the plugin off", new Fingerprint(1, 42));

        assertThatThrownBy(() -> results.check(1, "a round with the plugin on", Fingerprint.of(ROWS.subList(0, 2))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("q1 gave different results: 3 rows, checksum ")
                .hasMessageContaining(" in the warm-up, 2 rows, checksum ")
                .hasMessageEndingWith(" in a round with the plugin on");
    }
}
