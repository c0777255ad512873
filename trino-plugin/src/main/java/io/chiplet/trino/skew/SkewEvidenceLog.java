package io.chiplet.trino.skew;

import io.chiplet.placement.SkewEvidence;
import io.chiplet.placement.SkewHint;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The skew evidence of completed queries that did enough work ({@link SkewEvidence#enoughWork}), per query shape, and
 * the hint a new session gets from it. Trino's session property manager is not told the query text, only who runs it
 * ({@link SessionKey}: user and source), so a session gets a shape's hint only where every shape seen from the same
 * user and source within {@link SkewEvidence#MAX_AGE} agrees ({@link SkewEvidence#commonHint}): a job that runs one
 * statement gets its hint, a user mixing statements gets none, and no other user ever does. One instance per plugin,
 * bounded, every decision core's.
 */
public final class SkewEvidenceLog
{
    /** Who runs a query, as both the event listener and the session property manager see it. */
    public record SessionKey(String user, String source)
    {
        public SessionKey
        {
            requireNonNull(user, "user is null");
            requireNonNull(source, "source is null");
        }
    }

    private final int capacity;
    /** Per session key, per shape, the observations oldest first; keys in order of last use. */
    private final Map<SessionKey, Map<String, List<SkewEvidence.Observation>>> observations = new LinkedHashMap<>(16, 0.75f, true);
    private int size;

    public SkewEvidenceLog(int capacity)
    {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized void record(SessionKey key, String shape, SkewEvidence.Observation observation)
    {
        requireNonNull(key, "key is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(observation, "observation is null");
        observations.computeIfAbsent(key, any -> new HashMap<>()).computeIfAbsent(shape, any -> new ArrayList<>()).add(observation);
        size++;
        forgetOld(observation.completed());
        while (size > capacity) {
            // The key used least recently loses its oldest observation.
            Map.Entry<SessionKey, Map<String, List<SkewEvidence.Observation>>> eldest = observations.entrySet().iterator().next();
            Map.Entry<String, List<SkewEvidence.Observation>> shapeEntry = eldest.getValue().entrySet().iterator().next();
            shapeEntry.getValue().removeFirst();
            size--;
            prune(eldest.getKey(), shapeEntry.getKey());
        }
    }

    /** The hint for a new session of {@code key}: the common hint of the shapes it ran recently, none without evidence. */
    public synchronized SkewHint hintFor(SessionKey key, Instant now, int windowQueries)
    {
        requireNonNull(key, "key is null");
        requireNonNull(now, "now is null");
        forgetOld(now);
        Map<String, List<SkewEvidence.Observation>> shapes = observations.getOrDefault(key, Map.of());
        if (shapes.isEmpty()) {
            return SkewHint.NONE;
        }
        List<SkewHint> hints = new ArrayList<>();
        shapes.values().forEach(seen -> hints.add(SkewEvidence.shapeHint(seen, now, windowQueries)));
        return SkewEvidence.commonHint(hints);
    }

    /** Observations of one key and shape, oldest first; for the tests and the {@code skew} table. */
    public synchronized List<SkewEvidence.Observation> observations(SessionKey key, String shape)
    {
        return List.copyOf(observations.getOrDefault(key, Map.of()).getOrDefault(shape, List.of()));
    }

    private void forgetOld(Instant now)
    {
        for (var keys = observations.entrySet().iterator(); keys.hasNext(); ) {
            var key = keys.next();
            for (var shapes = key.getValue().entrySet().iterator(); shapes.hasNext(); ) {
                List<SkewEvidence.Observation> seen = shapes.next().getValue();
                int before = seen.size();
                seen.removeIf(observation -> !SkewEvidence.isFresh(observation, now));
                size -= before - seen.size();
                if (seen.isEmpty()) {
                    shapes.remove();
                }
            }
            if (key.getValue().isEmpty()) {
                keys.remove();
            }
        }
    }

    private void prune(SessionKey key, String shape)
    {
        Map<String, List<SkewEvidence.Observation>> shapes = observations.get(key);
        if (shapes.get(shape).isEmpty()) {
            shapes.remove(shape);
        }
        if (shapes.isEmpty()) {
            observations.remove(key);
        }
    }
}
