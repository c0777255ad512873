package io.chiplet.trino.skew;

import io.chiplet.placement.SkewEvidence;
import io.chiplet.placement.SkewHint;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class SkewEvidenceLogTest
{
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final SkewEvidenceLog.SessionKey ETL = new SkewEvidenceLog.SessionKey("etl", "airflow");

    @Test
    void aShapeWithEnoughEvidenceGivesItsHintToItsUserAndSourceOnly()
    {
        SkewEvidenceLog log = new SkewEvidenceLog(64);
        log.record(ETL, "shape-a", seen(3, SkewHint.SPREAD));
        assertThat(log.hintFor(ETL, NOW, 4)).isEqualTo(SkewHint.NONE);
        log.record(ETL, "shape-a", seen(2, SkewHint.NONE));
        assertThat(log.hintFor(ETL, NOW, 4)).isEqualTo(SkewHint.SPREAD);
        assertThat(log.hintFor(new SkewEvidenceLog.SessionKey("alice", "airflow"), NOW, 4)).isEqualTo(SkewHint.NONE);
        assertThat(log.hintFor(new SkewEvidenceLog.SessionKey("etl", "trino-cli"), NOW, 4)).isEqualTo(SkewHint.NONE);
    }

    @Test
    void shapesThatDisagreeGiveNoHint()
    {
        SkewEvidenceLog log = new SkewEvidenceLog(64);
        log.record(ETL, "shape-a", seen(4, SkewHint.SPREAD));
        log.record(ETL, "shape-a", seen(3, SkewHint.SPREAD));
        log.record(ETL, "shape-b", seen(2, SkewHint.NONE));
        assertThat(log.hintFor(ETL, NOW, 4)).isEqualTo(SkewHint.NONE);
    }

    @Test
    void evidenceDecays()
    {
        SkewEvidenceLog log = new SkewEvidenceLog(64);
        log.record(ETL, "shape-a", seen(10, SkewHint.SPREAD));
        log.record(ETL, "shape-a", seen(9, SkewHint.SPREAD));
        assertThat(log.hintFor(ETL, NOW, 4)).isEqualTo(SkewHint.SPREAD);
        Instant later = NOW.plus(SkewEvidence.MAX_AGE);
        assertThat(log.hintFor(ETL, later, 4)).isEqualTo(SkewHint.NONE);
        assertThat(log.observations(ETL, "shape-a")).as("forgotten, not only ignored").isEmpty();
    }

    @Test
    void boundedByForgettingTheLeastRecentlyUsed()
    {
        SkewEvidenceLog log = new SkewEvidenceLog(2);
        SkewEvidenceLog.SessionKey other = new SkewEvidenceLog.SessionKey("bob", "cli");
        log.record(ETL, "shape-a", seen(3, SkewHint.SPREAD));
        log.record(other, "shape-b", seen(2, SkewHint.SPREAD));
        log.record(other, "shape-b", seen(1, SkewHint.SPREAD));
        assertThat(log.observations(ETL, "shape-a")).isEmpty();
        assertThat(log.observations(other, "shape-b")).hasSize(2);
    }

    private static SkewEvidence.Observation seen(int minutesAgo, SkewHint hint)
    {
        return new SkewEvidence.Observation(NOW.minus(Duration.ofMinutes(minutesAgo)), hint);
    }
}
