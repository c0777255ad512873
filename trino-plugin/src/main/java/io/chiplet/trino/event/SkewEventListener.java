package io.chiplet.trino.event;

import io.chiplet.placement.SkewEvidence;
import io.chiplet.placement.SkewHint;
import io.chiplet.placement.SkewRule;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.skew.QueryShape;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.chiplet.trino.skew.StageSkewMeasure;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import io.trino.spi.eventlistener.StageTaskStatistics;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Measures every successfully completed query's skew per stage from its task statistics and records it in the plugin's
 * {@link SkewHistory}, which {@code chiplet.runtime.skew} shows and the session defaults feed back to the source's
 * later queries. Runs on the coordinator only, once per query, and does arithmetic on a handful of stages.
 */
final class SkewEventListener
        implements EventListener
{
    private final SkewHistory history;
    private final SkewEvidenceLog evidence;
    private final SkewRule.Thresholds thresholds;
    private final Logger log;
    private final FailOpenSwitch failOpen;

    SkewEventListener(SkewHistory history, SkewEvidenceLog evidence, SkewRule.Thresholds thresholds, Logger log)
    {
        this(history, evidence, thresholds, log, new FailOpenSwitch(log, "Chiplet skew listener", "no skew is recorded"));
    }

    SkewEventListener(SkewHistory history, SkewEvidenceLog evidence, SkewRule.Thresholds thresholds, Logger log, FailOpenSwitch failOpen)
    {
        this.history = requireNonNull(history, "history is null");
        this.evidence = requireNonNull(evidence, "evidence is null");
        this.thresholds = requireNonNull(thresholds, "thresholds is null");
        this.log = requireNonNull(log, "log is null");
        this.failOpen = requireNonNull(failOpen, "failOpen is null");
    }

    @Override
    public void queryCompleted(QueryCompletedEvent event)
    {
        if (!failOpen.active()) {
            return;
        }
        try {
            // A failed or cancelled query's stages stopped part way: their spread says nothing about the data.
            if (event.getFailureInfo().isPresent()) {
                return;
            }
            String queryId = event.getMetadata().getQueryId();
            String source = event.getContext().getSource().orElse("");
            List<CompletedStageSkew> stages = new ArrayList<>();
            int tasks = 0;
            for (StageTaskStatistics stage : event.getStatistics().getTaskStatistics()) {
                tasks += stage.getTasks();
                StageSkewMeasure.measure(queryId, source, stage, thresholds).ifPresent(stages::add);
            }
            long largestStageRows = stages.stream().mapToLong(CompletedStageSkew::inputRows).max().orElse(0);
            boolean evidenceCounts = SkewEvidence.enoughWork(tasks, largestStageRows, event.getStatistics().getCpuTime());
            SkewEvidenceLog.SessionKey key = new SkewEvidenceLog.SessionKey(event.getContext().getUser(), source);
            String shape = QueryShape.fingerprint(event.getMetadata().getQuery());
            if (evidenceCounts) {
                SkewHint queryHint = SkewEvidence.queryHint(stages.stream().map(stage -> SkewHint.fromConfigName(stage.hint())).toList());
                evidence.record(key, shape, new SkewEvidence.Observation(event.getEndTime(), queryHint));
            }
            // After the evidence: whoever sees the stages in the history may rely on the evidence being there.
            history.record(stages.stream().map(stage -> stage.withQuery(shape, evidenceCounts)).toList());
            logSkewed(queryId, key, shape, evidenceCounts, stages);
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("measuring a completed query failed: " + e);
        }
    }

    private void logSkewed(String queryId, SkewEvidenceLog.SessionKey key, String shape, boolean evidenceCounts, List<CompletedStageSkew> stages)
    {
        List<String> skewed = stages.stream()
                .filter(stage -> stage.hint().equals(SkewHint.SPREAD.configName()))
                .map(stage -> String.format(Locale.ROOT, "stage %d over %d tasks max/median %.1f max/mean %.2f gini %.2f",
                        stage.stageId(), stage.tasks(), stage.maxOverMedian(), stage.maxToMean(), stage.gini()))
                .toList();
        if (!skewed.isEmpty()) {
            log.info("Query {} skewed: {}; {}", queryId, String.join(", ", skewed), evidenceCounts
                    ? "evidence for query shape %s of user '%s' source '%s' (its hint applies after %d such queries within %d minutes)"
                            .formatted(shape, key.user(), key.source(), SkewEvidence.MIN_QUERIES, SkewEvidence.MAX_AGE.toMinutes())
                    : "too little work to count as evidence (core's SkewEvidence: at least %d tasks and %d rows in a stage or %d s of CPU)"
                            .formatted(SkewEvidence.MIN_TASKS, SkewEvidence.MIN_STAGE_INPUT_ROWS, SkewEvidence.MIN_CPU_TIME.toSeconds()));
        }
    }
}
