package io.chiplet.trino.session;

import io.chiplet.engine.trino.TrinoSessionSettings;
import io.chiplet.placement.SkewHint;
import io.chiplet.topology.Topology;
import io.chiplet.trino.cluster.WorkerReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The chiplet session defaults for one query, and how they give way to the operator's rules. The values come from
 * core's {@link TrinoSessionSettings}, as {@code chiplet advise --engine trino} prints them: {@code task_concurrency}
 * fitted to the workers' chiplets and cores (as the workers reported them, or as the operator's snapshot describes
 * every worker host), the hash partition counts to the number of workers, which may change while the coordinator
 * runs. Without a worker topology {@code task_concurrency} is left to Trino. Queries whose recent evidence was skewed
 * get their defaults adjusted by the hint. Pure: the topology and reports are read before, the worker count and the
 * hint are passed in.
 */
public final class SessionDefaultsPolicy
{
    public static final String TASK_CONCURRENCY = TrinoSessionSettings.TASK_CONCURRENCY;
    public static final String MIN_HASH_PARTITION_COUNT = TrinoSessionSettings.MIN_HASH_PARTITION_COUNT;
    public static final String MAX_HASH_PARTITION_COUNT = TrinoSessionSettings.MAX_HASH_PARTITION_COUNT;
    public static final Set<String> PROPERTIES = Set.of(TASK_CONCURRENCY, MIN_HASH_PARTITION_COUNT, MAX_HASH_PARTITION_COUNT);

    private final OptionalInt taskConcurrency;
    private final String taskConcurrencyReason;
    private final OptionalInt reportedWorkers;
    private final Set<String> enabled;
    private final Map<Integer, TrinoSessionSettings.HashPartitions> hashPartitionsByWorkers = new ConcurrentHashMap<>();

    private SessionDefaultsPolicy(OptionalInt taskConcurrency, String taskConcurrencyReason, OptionalInt reportedWorkers, Set<String> enabled)
    {
        this.taskConcurrency = taskConcurrency;
        this.taskConcurrencyReason = taskConcurrencyReason;
        this.reportedWorkers = reportedWorkers;
        this.enabled = Set.copyOf(enabled);
    }

    /**
     * Fitted to what the workers reported: {@code task_concurrency} as core fits it to the worker hosts (workers of one
     * host share its cores; where hosts differ, the smallest worker's figure), and the number of workers for the hash
     * partition counts. Without reports {@code task_concurrency} stays Trino's.
     */
    public static SessionDefaultsPolicy forWorkers(List<WorkerReport> reports, Set<String> enabled)
    {
        requireNonNull(reports, "reports is null");
        checkEnabled(enabled);
        if (reports.isEmpty()) {
            return new SessionDefaultsPolicy(OptionalInt.empty(), "no worker has reported its topology yet: Trino's own", OptionalInt.empty(), enabled);
        }
        Map<String, List<WorkerReport>> byHost = reports.stream().collect(Collectors.groupingBy(WorkerReport::host, TreeMap::new, Collectors.toList()));
        List<TrinoSessionSettings.WorkerHost> hosts = new ArrayList<>();
        byHost.values().forEach(workers -> hosts.add(TrinoSessionSettings.WorkerHost.sharedBy(workers.stream().map(WorkerReport::cores).toList())));
        TrinoSessionSettings.TaskConcurrency concurrency = TrinoSessionSettings.taskConcurrency(hosts);
        return new SessionDefaultsPolicy(OptionalInt.of(concurrency.value()), concurrency.reason(), OptionalInt.of(reports.size()), enabled);
    }

    private static void checkEnabled(Set<String> enabled)
    {
        requireNonNull(enabled, "enabled is null");
        if (!PROPERTIES.containsAll(enabled)) {
            throw new IllegalArgumentException("expected a subset of " + PROPERTIES + " but was " + enabled);
        }
    }

    /**
     * @param workerTopology one worker host's topology; every worker host is taken to look alike
     * @param workersPerHost Trino worker JVMs on each host, which share its cores
     * @param enabled which of {@link #PROPERTIES} to default
     */
    public static SessionDefaultsPolicy fit(Topology workerTopology, int workersPerHost, Set<String> enabled)
    {
        requireNonNull(workerTopology, "workerTopology is null");
        checkEnabled(enabled);
        TrinoSessionSettings.TaskConcurrency concurrency = TrinoSessionSettings.taskConcurrency(workerTopology, workerTopology.allowed(), workersPerHost);
        return new SessionDefaultsPolicy(OptionalInt.of(concurrency.value()), concurrency.reason(), OptionalInt.empty(), enabled);
    }

    /** Empty where no worker topology is known: Trino's own {@code task_concurrency} applies. */
    public OptionalInt taskConcurrency()
    {
        return taskConcurrency;
    }

    /** How many workers reported; empty where the policy was not fitted to reports. */
    public OptionalInt reportedWorkers()
    {
        return reportedWorkers;
    }

    public String taskConcurrencyReason()
    {
        return taskConcurrencyReason;
    }

    /**
     * The system properties a query gets: the operator's rules as they are, and ours wherever they set nothing.
     * Trino itself puts a user's own session properties above both.
     *
     * @param ruleProperties what the operator's matching rules set
     * @param workers nodes taking part in queries; without it the hash partition counts stay Trino's
     */
    public Map<String, String> systemProperties(Map<String, String> ruleProperties, OptionalInt workers, SkewHint hint)
    {
        requireNonNull(ruleProperties, "ruleProperties is null");
        requireNonNull(workers, "workers is null");
        requireNonNull(hint, "hint is null");
        Map<String, String> ours = new HashMap<>();
        // Core turns the hint into values: more drivers per task split a task's input into more, smaller local
        // partitions; fewer waste less on tiny input.
        TrinoSessionSettings.HintedValues hinted = TrinoSessionSettings.withSkewHint(hint, taskConcurrency.orElse(1),
                workers.isPresent() ? Optional.of(hashPartitions(workers.getAsInt())) : Optional.empty());
        if (taskConcurrency.isPresent()) {
            ours.put(TASK_CONCURRENCY, Integer.toString(hinted.taskConcurrency()));
        }
        hinted.hashPartitions().ifPresent(partitions -> {
            int min = partitions.min();
            long max = partitions.max();
            // Ours must not contradict the rules: Trino fails a query whose minimum exceeds its maximum.
            OptionalInt ruleMax = parseCount(ruleProperties.get(MAX_HASH_PARTITION_COUNT));
            OptionalInt ruleMin = parseCount(ruleProperties.get(MIN_HASH_PARTITION_COUNT));
            if (ruleMax.isPresent()) {
                min = Math.min(min, ruleMax.getAsInt());
            }
            if (ruleMin.isPresent()) {
                max = Math.max(max, ruleMin.getAsInt());
            }
            ours.put(MIN_HASH_PARTITION_COUNT, Integer.toString(min));
            ours.put(MAX_HASH_PARTITION_COUNT, Long.toString(Math.min(max, Integer.MAX_VALUE)));
        });
        Map<String, String> properties = new HashMap<>(ruleProperties);
        ours.forEach((name, value) -> {
            if (enabled.contains(name)) {
                properties.putIfAbsent(name, value);
            }
        });
        return Map.copyOf(properties);
    }

    /** Core's hash partition counts for that many workers. */
    TrinoSessionSettings.HashPartitions hashPartitions(int workers)
    {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive: " + workers);
        }
        return hashPartitionsByWorkers.computeIfAbsent(workers, TrinoSessionSettings.HashPartitions::of);
    }

    private static OptionalInt parseCount(String value)
    {
        return Optional.ofNullable(value)
                .map(String::trim)
                .filter(text -> text.matches("[0-9]{1,9}"))
                .map(text -> OptionalInt.of(Integer.parseInt(text)))
                .orElse(OptionalInt.empty());
    }
}
