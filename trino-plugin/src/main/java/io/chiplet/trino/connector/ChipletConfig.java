package io.chiplet.trino.connector;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.placement.Policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The {@code chiplet.*} settings of a catalog file with {@code connector.name=chiplet}; docs/trino.md documents each
 * with its default.
 *
 * @param enabled false: the catalog's tables work, nothing is pinned
 * @param policy how query threads spread over the node's chiplets
 * @param fsRoot read the topology from this sysfs snapshot instead of {@code /}; pinning still acts on the live
 *         kernel and only ever uses CPUs this process may use
 * @param adaptiveInterval how often the adaptive policy samples every thread's remote-access signal
 * @param remoteAccessThreshold signal events per adaptive interval above which a thread's spread widens
 * @param memoryBind keep every thread's CPUs inside one NUMA node so that its first-touch pages are local
 * @param virtualChipletCores 0 for real chiplets; N splits every chiplet into virtual chiplets of N cores
 * @param leaseDirectory where the host-wide chiplet leases live
 * @param chipletsPerNode how many chiplets this node leases; empty for all of them (one Trino JVM per host)
 * @param rescanInterval how often the node's threads are scanned for new and retired query threads (under
 *         {@code adaptive}, the adaptive interval instead)
 */
public record ChipletConfig(
        boolean enabled,
        Policy policy,
        Optional<Path> fsRoot,
        Duration adaptiveInterval,
        double remoteAccessThreshold,
        boolean memoryBind,
        int virtualChipletCores,
        Path leaseDirectory,
        OptionalInt chipletsPerNode,
        Duration rescanInterval)
{
    public static final String ENABLED = "chiplet.enabled";
    public static final String POLICY = "chiplet.policy";
    public static final String FS_ROOT = "chiplet.fs-root";
    public static final String ADAPTIVE_INTERVAL = "chiplet.adaptive.interval";
    public static final String REMOTE_ACCESS_THRESHOLD = "chiplet.adaptive.remote-access-threshold";
    public static final String MEMORY_BIND = "chiplet.memory.bind";
    public static final String VIRTUAL_CHIPLET_CORES = "chiplet.virtual-chiplet-cores";
    public static final String LEASE_DIR = "chiplet.lease-dir";
    public static final String CHIPLETS_PER_NODE = "chiplet.chiplets-per-node";
    public static final String RESCAN_INTERVAL = "chiplet.rescan-interval";

    public static final List<String> PROPERTIES = List.of(
            ENABLED, POLICY, FS_ROOT, ADAPTIVE_INTERVAL, REMOTE_ACCESS_THRESHOLD, MEMORY_BIND, VIRTUAL_CHIPLET_CORES, LEASE_DIR,
            CHIPLETS_PER_NODE, RESCAN_INTERVAL);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m)?");
    private static final Duration MIN_INTERVAL = Duration.ofMillis(10);

    public ChipletConfig
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(adaptiveInterval, "adaptiveInterval is null");
        requireNonNull(leaseDirectory, "leaseDirectory is null");
        requireNonNull(chipletsPerNode, "chipletsPerNode is null");
        requireNonNull(rescanInterval, "rescanInterval is null");
    }

    public static ChipletConfig defaults()
    {
        return ((Valid) parse(Map.of())).config();
    }

    /** Reading a catalog's properties gives valid settings or the first one that is not usable. */
    public sealed interface Parsed
            permits Valid, Problem
    {}

    public record Valid(ChipletConfig config)
            implements Parsed
    {
        public Valid
        {
            requireNonNull(config, "config is null");
        }
    }

    /** A property the plugin cannot use: its name, the value given and what it expected. */
    public record Problem(String property, String value, String expected)
            implements Parsed
    {
        public Problem
        {
            requireNonNull(property, "property is null");
            requireNonNull(value, "value is null");
            requireNonNull(expected, "expected is null");
        }

        public String message()
        {
            return "%s=%s is not usable: expected %s".formatted(property, value, expected);
        }
    }

    /**
     * Reads the catalog's properties. A {@code chiplet.*} property that is none of {@link #PROPERTIES} is a problem
     * too: a misspelt setting quietly left at its default would look like the plugin ignoring the operator.
     */
    public static Parsed parse(Map<String, String> properties)
    {
        requireNonNull(properties, "properties is null");
        Map<String, String> ours = new TreeMap<>();
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            if (entry.getKey().equals("connector.name")) {
                continue;
            }
            if (!PROPERTIES.contains(entry.getKey())) {
                return new Problem(entry.getKey(), entry.getValue(), "one of the properties " + String.join(", ", PROPERTIES));
            }
            ours.put(entry.getKey(), entry.getValue().strip());
        }
        try {
            return new Valid(new ChipletConfig(
                    read(ours, ENABLED, "true", ChipletConfig::parseBoolean),
                    read(ours, POLICY, Policy.AUTO.cliName(), ChipletConfig::parsePolicy),
                    Optional.ofNullable(ours.get(FS_ROOT)).map(value -> read(ours, FS_ROOT, value, ChipletConfig::parsePath)),
                    read(ours, ADAPTIVE_INTERVAL, "500ms", ChipletConfig::parseDuration),
                    read(ours, REMOTE_ACCESS_THRESHOLD, "300", ChipletConfig::parseThreshold),
                    read(ours, MEMORY_BIND, "true", ChipletConfig::parseBoolean),
                    read(ours, VIRTUAL_CHIPLET_CORES, "0", value -> parseInt(value, 0, "a whole number of cores, 0 (real chiplets) or more")),
                    read(ours, LEASE_DIR, ChipletLeases.defaultDirectory().toString(), ChipletConfig::parsePath),
                    read(ours, CHIPLETS_PER_NODE, "all", ChipletConfig::parseChipletsPerNode),
                    read(ours, RESCAN_INTERVAL, "1s", ChipletConfig::parseDuration)));
        }
        catch (SettingException e) {
            return e.problem;
        }
    }

    private static <T> T read(Map<String, String> properties, String property, String defaultValue, Function<String, T> parser)
    {
        String value = properties.getOrDefault(property, defaultValue);
        try {
            return parser.apply(value);
        }
        catch (BadValue e) {
            throw new SettingException(new Problem(property, value, e.expected));
        }
    }

    private static boolean parseBoolean(String value)
    {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new BadValue("true or false");
        };
    }

    private static Policy parsePolicy(String value)
    {
        try {
            return Policy.parse(value);
        }
        catch (IllegalArgumentException e) {
            throw new BadValue("one of " + Policy.validNames());
        }
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m}, or a bare number of milliseconds; at least 10 ms. */
    static Duration parseDuration(String value)
    {
        String expected = "a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least 10ms";
        Matcher matcher = DURATION.matcher(value.toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new BadValue(expected);
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration duration = switch (matcher.group(2) == null ? "ms" : matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofMillis(amount);
        };
        if (duration.compareTo(MIN_INTERVAL) < 0) {
            throw new BadValue(expected);
        }
        return duration;
    }

    private static double parseThreshold(String value)
    {
        String expected = "a positive number of remote-access events per adaptive interval";
        try {
            double threshold = Double.parseDouble(value);
            if (!(threshold > 0) || Double.isInfinite(threshold)) {
                throw new BadValue(expected);
            }
            return threshold;
        }
        catch (NumberFormatException e) {
            throw new BadValue(expected);
        }
    }

    private static OptionalInt parseChipletsPerNode(String value)
    {
        if (value.equalsIgnoreCase("all")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(parseInt(value, 1, "all, or a whole number of chiplets, at least 1"));
    }

    private static int parseInt(String value, int minimum, String expected)
    {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < minimum) {
                throw new BadValue(expected);
            }
            return parsed;
        }
        catch (NumberFormatException e) {
            throw new BadValue(expected);
        }
    }

    private static Path parsePath(String value)
    {
        if (value.isEmpty()) {
            throw new BadValue("a file system path");
        }
        try {
            return Path.of(value);
        }
        catch (InvalidPathException e) {
            throw new BadValue("a file system path");
        }
    }

    // Carries what a parser expected up to read(), which knows the property and the value.
    private static final class BadValue
            extends RuntimeException
    {
        private final String expected;

        BadValue(String expected)
        {
            super(expected, null, false, false);
            this.expected = expected;
        }
    }

    private static final class SettingException
            extends RuntimeException
    {
        private final Problem problem;

        SettingException(Problem problem)
        {
            super(problem.message(), null, false, false);
            this.problem = problem;
        }
    }
}
