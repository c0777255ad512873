package io.chiplet.spark.driver;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The partition figure in every SparkSession the application has, not only in sessions made after it: a session
 * copies the SparkConf once, when it is made, and notebooks, shells, Spark Connect and every application whose
 * executors arrive after its session keep what they copied. Sessions register when their first query is analysed
 * ({@link ChipletSessionExtension}); every new figure reaches all of them.
 *
 * <p>Which keys are ours in a session: a key the user set in the SparkConf never is; otherwise a key is ours while
 * the session holds what this class last set there, or, before it set anything, nothing or a value it gave before
 * (the SparkConf copy). A value of the user's ({@code SET}, {@code spark.conf.set}, the builder's config) makes the
 * key the user's in that session for good. Only the session-scoped {@code spark.sql.*} keys go to sessions;
 * {@code spark.default.parallelism} is read from the SparkConf while the application runs.
 *
 * <p>Sessions are held weakly: a session the application drops is forgotten with it.
 */
final class SessionSizing
{
    private static final String USERS = "\0user";

    private final Set<String> userKeys;
    private final Function<Object, SessionConf> confOf;
    private final Map<String, Set<String>> ourValues = new HashMap<>();
    private final Map<Object, Map<String, String>> sessions = new WeakHashMap<>();
    private List<AdvisedSetting> figure = List.of();

    /**
     * @param userKeys keys the user set in the SparkConf: never ours
     * @param confOf a registered session's settings
     */
    SessionSizing(Set<String> userKeys, Function<Object, SessionConf> confOf)
    {
        this.userKeys = Set.copyOf(requireNonNull(userKeys, "userKeys is null"));
        this.confOf = requireNonNull(confOf, "confOf is null");
    }

    /** What one update did: sessions that took the figure, and keys a session kept as its user set them (each said once). */
    record Applied(int sessionsChanged, List<String> keptByUser)
    {
        Applied
        {
            keptByUser = List.copyOf(keptByUser);
        }
    }

    /** A value given through the SparkConf: sessions copying it hold ours. */
    synchronized void gaveThroughSparkConf(String key, String value)
    {
        ourValues.computeIfAbsent(key, ignored -> new HashSet<>()).add(value);
    }

    /** A session seen for the first time gets the current figure; seen again, nothing happens. */
    synchronized Applied register(Object session)
    {
        requireNonNull(session, "session is null");
        if (sessions.containsKey(session)) {
            return new Applied(0, List.of());
        }
        sessions.put(session, new LinkedHashMap<>());
        return applyTo(List.of(session));
    }

    /** A new figure, for every registered session (and later ones). */
    synchronized Applied update(List<AdvisedSetting> settings)
    {
        figure = List.copyOf(requireNonNull(settings, "settings is null"));
        return applyTo(new ArrayList<>(sessions.keySet()));
    }

    synchronized int sessions()
    {
        return sessions.size();
    }

    private Applied applyTo(List<Object> targets)
    {
        int changed = 0;
        List<String> kept = new ArrayList<>();
        for (Object session : targets) {
            Map<String, String> applied = sessions.get(session);
            SessionConf conf = confOf.apply(session);
            boolean any = false;
            for (AdvisedSetting setting : figure) {
                String key = setting.key();
                if (!key.startsWith("spark.sql.") || userKeys.contains(key) || USERS.equals(applied.get(key))) {
                    continue;
                }
                Optional<String> current = conf.get(key);
                if (!ours(key, current, Optional.ofNullable(applied.get(key)))) {
                    applied.put(key, USERS);
                    kept.add(key + " = " + current.orElse(""));
                    continue;
                }
                if (!current.equals(Optional.of(setting.value()))) {
                    conf.set(key, setting.value());
                    any = true;
                }
                applied.put(key, setting.value());
                ourValues.computeIfAbsent(key, ignored -> new HashSet<>()).add(setting.value());
            }
            if (any) {
                changed++;
            }
        }
        return new Applied(changed, kept);
    }

    private boolean ours(String key, Optional<String> current, Optional<String> lastApplied)
    {
        if (lastApplied.isPresent()) {
            return current.equals(lastApplied);
        }
        return current.isEmpty() || ourValues.getOrDefault(key, Set.of()).contains(current.get());
    }
}
