package io.chiplet.trino.session;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.SettingsReader;
import io.chiplet.topology.DiscoveryOptions;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The settings of the {@code chiplet} session property manager, read from {@code etc/session-property-config.properties}
 * (Trino passes every entry but {@code session-property-config.configuration-manager}).
 *
 * @param topology where to read a worker host's topology, taken to describe every worker host, where
 *         {@link #namesWorkerTopology()}; otherwise the workers' own reports are used
 * @param workersPerHost Trino worker JVMs per host, with a named topology (reports say which workers share a host)
 * @param workers nodes that run tasks; empty to take the number of workers that reported (or, before any report,
 *         that ran tasks)
 * @param defaults which session properties get chiplet defaults
 * @param skewWindowQueries how many of a query shape's latest queries its skew hint looks at; 0 turns the feedback off
 * @param stateDirectory where the workers' last reports are kept over coordinator restarts
 */
public record SessionManagerSettings(DiscoveryOptions topology, int workersPerHost, OptionalInt workers, Set<String> defaults, int skewWindowQueries,
        Path stateDirectory)
{
    public static final String RULES_FILE = "session-property-manager.config-file";
    public static final String FS_ROOT = "chiplet.fs-root";
    public static final String HWLOC_XML = "chiplet.hwloc-xml";
    public static final String VIRTUAL_CHIPLET_CORES = "chiplet.virtual-chiplet-cores";
    public static final String WORKERS_PER_HOST = "chiplet.workers-per-host";
    public static final String WORKERS = "chiplet.workers";
    public static final String DEFAULTS = "chiplet.session-defaults";
    public static final String SKEW_WINDOW_QUERIES = "chiplet.skew-feedback.window-queries";
    public static final String STATE_DIR = "chiplet.state-dir";

    public static final Set<String> KEYS = Set.of(RULES_FILE, FS_ROOT, HWLOC_XML, VIRTUAL_CHIPLET_CORES, WORKERS_PER_HOST, WORKERS, DEFAULTS, SKEW_WINDOW_QUERIES,
            STATE_DIR);

    public SessionManagerSettings
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(workers, "workers is null");
        defaults = Set.copyOf(defaults);
        requireNonNull(stateDirectory, "stateDirectory is null");
    }

    /** Whether the operator named the workers' topology; otherwise the workers' own reports size the defaults. */
    public boolean namesWorkerTopology()
    {
        return topology.fsRoot().isPresent() || topology.hwlocXml().isPresent();
    }

    /**
     * Folder {@code chiplet} of the node's data directory: Trino's launcher passes {@code node.data-dir} and starts the
     * server in that directory.
     */
    static Path defaultStateDirectory()
    {
        String dataDir = System.getProperty("node.data-dir", System.getProperty("user.dir", "."));
        return Path.of(dataDir).toAbsolutePath().resolve("chiplet");
    }

    /**
     * The rules file, read apart from the other settings: a bad {@code chiplet.*} setting must not cost the operator
     * their rules.
     */
    public static Optional<Path> rulesFile(Map<String, String> config)
    {
        return Optional.ofNullable(config.get(RULES_FILE)).map(String::trim).map(value -> path(RULES_FILE, value));
    }

    /**
     * @throws IllegalArgumentException naming the first setting that is not usable, its value and what was expected
     */
    public static SessionManagerSettings parse(Map<String, String> config)
    {
        requireNonNull(config, "config is null");
        for (String key : new TreeSet<>(config.keySet())) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("%s is not a setting of the chiplet session property manager: expected one of %s".formatted(key, String.join(", ", new TreeSet<>(KEYS))));
            }
        }
        Optional<Path> fsRoot = Optional.ofNullable(config.get(FS_ROOT)).map(String::trim).map(value -> path(FS_ROOT, value));
        Optional<Path> hwlocXml = Optional.ofNullable(config.get(HWLOC_XML)).map(String::trim).map(value -> path(HWLOC_XML, value));
        if (fsRoot.isPresent() && hwlocXml.isPresent()) {
            throw new IllegalArgumentException("%s and %s are exclusive: give at most one".formatted(FS_ROOT, HWLOC_XML));
        }
        SettingsReader settings = new SettingsReader(stripped(config));
        int virtualChipletCores;
        int workersPerHost;
        OptionalInt workers;
        int window;
        try {
            virtualChipletCores = settings.read(VIRTUAL_CHIPLET_CORES, PluginSettings.VIRTUAL_CHIPLET_CORES);
            workersPerHost = settings.read(WORKERS_PER_HOST, PluginSettings.WORKERS_PER_HOST);
            workers = settings.readIfSet(WORKERS, PluginSettings.WORKERS).map(OptionalInt::of).orElse(OptionalInt.empty());
            window = settings.read(SKEW_WINDOW_QUERIES, PluginSettings.SKEW_WINDOW_QUERIES);
        }
        catch (InvalidSettingException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Set<String> defaults = new LinkedHashSet<>();
        String defaultsValue = config.getOrDefault(DEFAULTS, String.join(",", new TreeSet<>(SessionDefaultsPolicy.PROPERTIES)));
        for (String name : Arrays.stream(defaultsValue.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList()) {
            if (!SessionDefaultsPolicy.PROPERTIES.contains(name)) {
                throw bad(DEFAULTS, defaultsValue, "a comma-separated list of " + String.join(", ", new TreeSet<>(SessionDefaultsPolicy.PROPERTIES)) + " (empty for none)");
            }
            defaults.add(name);
        }
        return new SessionManagerSettings(
                new DiscoveryOptions(fsRoot, hwlocXml, virtualChipletCores),
                workersPerHost,
                workers,
                defaults,
                window,
                Optional.ofNullable(config.get(STATE_DIR)).map(String::trim).map(value -> path(STATE_DIR, value)).orElseGet(SessionManagerSettings::defaultStateDirectory));
    }

    private static Map<String, String> stripped(Map<String, String> config)
    {
        Map<String, String> values = new HashMap<>();
        config.forEach((key, value) -> values.put(key, value.strip()));
        return values;
    }

    private static Path path(String key, String value)
    {
        try {
            if (value.isEmpty()) {
                throw bad(key, value, "a file or directory path");
            }
            return Path.of(value);
        }
        catch (InvalidPathException e) {
            throw bad(key, value, "a file or directory path");
        }
    }

    private static IllegalArgumentException bad(String key, String value, String expected)
    {
        return new IllegalArgumentException("%s = '%s' is not usable: expected %s".formatted(key, value, expected));
    }
}
