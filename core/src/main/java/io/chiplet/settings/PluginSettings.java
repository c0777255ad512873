package io.chiplet.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.EffectInjector;
import io.chiplet.measure.GuardMode;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SkewAnalysis;
import io.chiplet.placement.SkewEvidence;
import io.chiplet.placement.SkewRule;
import io.chiplet.placement.SpreadController;
import io.chiplet.topology.MemoryKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * Every setting of the Spark plugin and the Trino plugin, declared once: name stem, type, unit, default, bounds and
 * description. Spark reads them as {@code spark.chiplet.<camelCase stem>}, Trino as {@code chiplet.<stem>} catalog (or
 * listener, session manager) properties; both accept and reject the same values, and docs/spark.md and docs/trino.md
 * list each with the default declared here.
 *
 * <p>Where the two plugins used to differ (adaptive interval, remote-access threshold, the test-only injected ratio),
 * the declaration is the one both now follow.
 */
public final class PluginSettings
{
    private PluginSettings() {}

    /** The adaptive loop's interval by default: CHARM's scheduler timer. */
    public static final Duration DEFAULT_ADAPTIVE_INTERVAL = Duration.ofNanos(SpreadController.Settings.CHARM_INTERVAL_NANOS);
    /** Remote-access events per interval above which the adaptive loop widens a spread by default: CHARM's 300 per 500 ms. */
    public static final double DEFAULT_REMOTE_ACCESS_THRESHOLD = SpreadController.Settings.CHARM_THRESHOLD;
    /** The shortest interval any periodic plugin loop accepts: below it the loop's own work is the load. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    /** One switchback window by default (Trino): long against a query, short against the run. */
    public static final Duration DEFAULT_MEASURE_WINDOW = Duration.ofSeconds(30);
    /** The shortest switchback window: shorter ones hold no whole query. */
    public static final Duration MIN_MEASURE_WINDOW = Duration.ofMillis(100);
    /** After a switch of arm, the time a task of the old arm still running may need: Spark's tasks mostly take well under a second. */
    public static final Duration DEFAULT_MEASURE_WASHOUT = Duration.ofSeconds(1);
    /** The seed of the arms' draw where none is set and the engine draws none (Spark: every executor draws alike). */
    public static final long DEFAULT_MEASURE_SEED = 0x23_c41e_7L;
    /** The bounds of the test-only injected effect: placed over control time. */
    public static final double MIN_INJECT_TIME_RATIO = EffectInjector.MIN_TIME_RATIO;
    public static final double MAX_INJECT_TIME_RATIO = EffectInjector.MAX_TIME_RATIO;

    public static final Setting<Boolean> ENABLED = Setting.of("enabled", Boolean.class, "", "true", "true or false",
            "false switches the plugin off: the engine runs as without it", SettingValues::parseBoolean);
    public static final Setting<Policy> POLICY = Setting.of("policy", Policy.class, "", Policy.AUTO.cliName(), "one of " + Policy.validNames(),
            "how the engine's threads spread over the chiplets", SettingValues::parsePolicy);
    public static final Setting<Path> FS_ROOT = Setting.optional("fs-root", Path.class, "", "a file system path",
            "read the topology from this sysfs snapshot instead of /; pinning still acts on the live kernel", SettingValues::parsePath);
    public static final Setting<Duration> ADAPTIVE_INTERVAL = Setting.of("adaptive.interval", Duration.class, "milliseconds",
            DEFAULT_ADAPTIVE_INTERVAL.toMillis() + "ms", durationExpected(MIN_INTERVAL),
            "how often the adaptive policy samples the remote-access signal and revises each spread",
            value -> SettingValues.parseDuration(value, MIN_INTERVAL));
    public static final Setting<Double> REMOTE_ACCESS_THRESHOLD = Setting.of("adaptive.remote-access-threshold", Double.class, "events per adaptive interval",
            Long.toString((long) DEFAULT_REMOTE_ACCESS_THRESHOLD), "a number of remote-access events per adaptive interval, 0 (any) or more",
            "signal events per interval above which the adaptive policy widens a spread",
            value -> SettingValues.parseDouble(value, 0, Double.MAX_VALUE));
    public static final Setting<Boolean> MEMORY_BIND = Setting.of("memory.bind", Boolean.class, "", "true", "true or false",
            "keep each chiplet's memory on its node", SettingValues::parseBoolean);
    public static final Setting<MemoryKind> MEMORY_KIND = Setting.of("memory.kind", MemoryKind.class, "", "dram", "dram, hbm or cxl-pmem",
            "which kind of node a chiplet's memory comes from", SettingValues::parseMemoryKind);
    public static final Setting<Integer> VIRTUAL_CHIPLET_CORES = Setting.of("virtual-chiplet-cores", Integer.class, "cores", "0",
            "a whole number of cores, 0 (real chiplets) or more", "split every chiplet into virtual ones of this many cores",
            value -> SettingValues.parseInt(value, 0, "a count"));
    /** A fixed host path by default: a container's own temporary directory coordinates nothing ({@link HostDivision#DEFAULT_LEASE_DIRECTORY}). */
    public static final Setting<Path> LEASE_DIR = Setting.of("lease-dir", Path.class, "", HostDivision.DEFAULT_LEASE_DIRECTORY,
            "a file system path", "where the JVMs of one host record the chiplets they lease", SettingValues::parsePath);

    /** Spark only: how the plugin places work ({@code task}, {@code executor}, {@code auto}). */
    public static final Setting<PlacementMode> MODE = Setting.choice("mode", PlacementMode.class, PlacementMode.TASK, List.of(PlacementMode.values()),
            PlacementMode::configName, "task: pin each task thread; executor: one executor per chiplet; auto: per executor");
    /** Spark only: which native layer pins threads. */
    public static final Setting<PinningBackend.Kind> PINNING_BACKEND = Setting.choice("pinning.backend", PinningBackend.Kind.class, PinningBackend.Kind.FFM,
            List.of(PinningBackend.Kind.values()), PinningBackend.Kind::configName, "ffm: the project's own calls; openhft: OpenHFT Java-Thread-Affinity");
    /** Spark only: whether the driver sizes the shuffle partitions. */
    public static final Setting<Boolean> PARTITIONS_RESIZE = Setting.of("partitions.resize", Boolean.class, "", "true", "true or false",
            "size the engine's partitions where the user left them unset", SettingValues::parseBoolean);
    /** Trino only: how many chiplets a node leases; empty for all of them. */
    public static final Setting<OptionalInt> CHIPLETS_PER_NODE = Setting.of("chiplets-per-node", OptionalInt.class, "chiplets", "all",
            "all, or a whole number of chiplets, at least 1", "how many chiplets this node leases", SettingValues::parseCountOrAll);
    /** Trino only: how often the node's threads are scanned for new and retired query threads. */
    public static final Setting<Duration> RESCAN_INTERVAL = Setting.of("rescan-interval", Duration.class, "milliseconds", "1s", durationExpected(MIN_INTERVAL),
            "how often the node's threads are scanned for new and retired query threads", value -> SettingValues.parseDuration(value, MIN_INTERVAL));

    public static final Setting<Boolean> MEASURE_ENABLED = Setting.of("measure.enabled", Boolean.class, "", "true", "true or false",
            "measure placement in place against an unplaced control share", SettingValues::parseBoolean);
    public static final Setting<Double> MEASURE_CONTROL_SHARE = Setting.of("measure.control-share", Double.class, "share", Double.toString(MeasurementPlan.DEFAULT_CONTROL_SHARE),
            "a control share from 0 to " + ArmAssignment.MAX_CONTROL_SHARE + ", e.g. 0.1", "the share run unplaced while the interval is wide; a quarter of it once decisive",
            value -> SettingValues.parseDouble(value, 0, ArmAssignment.MAX_CONTROL_SHARE));
    /**
     * The switchback windows' length (Trino's), or their shortest (Spark's with {@link #MEASURE_DESIGN} {@code window}:
     * lengthened by {@link io.chiplet.measure.WindowLength}'s rule).
     */
    public static final Setting<Duration> MEASURE_WINDOW = Setting.of("measure.window", Duration.class, "milliseconds", DEFAULT_MEASURE_WINDOW.toSeconds() + "s",
            durationExpected(MIN_MEASURE_WINDOW), "the length of one switchback window", value -> SettingValues.parseDuration(value, MIN_MEASURE_WINDOW));
    /** Spark only: switchback windows per host ({@code window}) or a control share of each stage's tasks ({@code task}). */
    public static final Setting<MeasureDesign> MEASURE_DESIGN = Setting.choice("measure.design", MeasureDesign.class, MeasureDesign.WINDOW,
            List.of(MeasureDesign.values()), MeasureDesign::configName,
            "window: every executor of a host places or not for a window of time; task: a share of each stage's tasks runs unplaced beside placed ones");
    /** Spark only: after a switch of arm, tasks starting this long into the new window are left out. */
    public static final Setting<Duration> MEASURE_WASHOUT = Setting.of("measure.washout", Duration.class, "milliseconds", DEFAULT_MEASURE_WASHOUT.toSeconds() + "s",
            "a duration such as 500ms or 2s (a bare number is milliseconds), 0 or more and shorter than the window",
            "after a switch of arm, tasks that start within this time are left out", value -> SettingValues.parseDuration(value, Duration.ZERO));
    /** Spark only: where the driver keeps the measurement's history of runs. */
    public static final Setting<Path> MEASURE_HISTORY_DIR = Setting.optional("measure.history-dir", Path.class, "", "a file system path",
            "where each application's measured runs are kept, so recurring runs add up", SettingValues::parsePath);
    /** Spark only: the key recurring runs are pooled under; the application's name by default. */
    public static final Setting<String> MEASURE_KEY = Setting.optional("measure.key", String.class, "", "a non-empty name",
            "the name recurring runs are pooled under", SettingValues::parseNonEmpty);
    public static final Setting<GuardMode> GUARD = Setting.choice("guard", GuardMode.class, GuardMode.AUTO, List.of(GuardMode.values()), GuardMode::configName,
            "auto stops placing once placed work is measurably slower; always places regardless");
    public static final Setting<Path> MEASURE_REPORT_DIR = Setting.optional("measure.report-dir", Path.class, "", "a file system path",
            "where the measurement's JSON and HTML report is written", SettingValues::parsePath);
    public static final Setting<Long> MEASURE_SEED = Setting.optional("measure.seed", Long.class, "", "a whole number",
            "the seed of the arms' draw", SettingValues::parseLong);
    public static final Setting<Double> MEASURE_INJECT_TIME_RATIO = Setting.optional("measure.test.inject-time-ratio", Double.class, "placed over control time",
            "a time ratio of placed over control work from " + MIN_INJECT_TIME_RATIO + " to " + MAX_INJECT_TIME_RATIO + " (1.25: placed work takes 25 % longer)",
            "test only: the effect the injector makes", value -> SettingValues.parseDouble(value, MIN_INJECT_TIME_RATIO, MAX_INJECT_TIME_RATIO));

    /** Trino event listener: core's {@link SkewRule.Thresholds#skewedMaxOverMedian()}. */
    public static final Setting<Double> SKEW_MAX_OVER_MEDIAN = Setting.of("skew.max-over-median", Double.class, "ratio", Double.toString(SkewAnalysis.SKEWED_MAX_OVER_MEDIAN),
            "a ratio above 1, such as 2.0", "a stage whose largest task input is at least this many medians is skewed",
            value -> SettingValues.parseDoubleAbove(value, 1));
    /** Trino event listener: core's {@link SkewRule.Thresholds#minStageRows()}. */
    public static final Setting<Long> SKEW_MIN_STAGE_ROWS = Setting.of("skew.min-stage-rows", Long.class, "rows", Long.toString(SkewRule.Thresholds.DEFAULT_MIN_STAGE_ROWS),
            "a whole number of rows, 0 or more", "below this many input rows a stage's skew does not matter", value -> SettingValues.parseLong(value, 0));
    /** Trino event listener: core's {@link SkewRule.Thresholds#consolidateBelowBytes()}. */
    public static final Setting<Long> SKEW_CONSOLIDATE_BELOW_BYTES = Setting.of("skew.consolidate-below-bytes", Long.class, "bytes",
            Long.toString(SkewRule.Thresholds.DEFAULT.consolidateBelowBytes()), "a whole number of bytes, 0 (never consolidate) or more",
            "a stage whose every task read less than this consolidates", value -> SettingValues.parseLong(value, 0));
    /** Trino session manager: how many of a query shape's latest queries its skew hint looks at. */
    public static final Setting<Integer> SKEW_WINDOW_QUERIES = Setting.of("skew-feedback.window-queries", Integer.class, "queries",
            Integer.toString(SkewEvidence.DEFAULT_WINDOW_QUERIES), "a whole number of queries, 0 (off) or more",
            "how many of a query shape's latest queries its skew hint looks at; 0 turns the feedback off", value -> SettingValues.parseInt(value, 0, "a count"));

    /** Trino session manager: Trino worker JVMs per host, where the operator names the workers' topology. */
    public static final Setting<Integer> WORKERS_PER_HOST = Setting.of("workers-per-host", Integer.class, "worker JVMs", "1",
            "a whole number of worker JVMs per host, at least 1", "how many Trino workers share each worker host's cores",
            value -> SettingValues.parseInt(value, 1, "a count"));
    /** Trino session manager: nodes that run tasks; by default those that reported. */
    public static final Setting<Integer> WORKERS = Setting.optional("workers", Integer.class, "nodes",
            "a whole number of nodes that run tasks, at least 1", "nodes that run tasks, for the hash partition counts",
            value -> SettingValues.parseInt(value, 1, "a count"));

    /** Every declaration, in the order the docs list them. */
    public static final List<Setting<?>> ALL = List.of(ENABLED, POLICY, FS_ROOT, ADAPTIVE_INTERVAL, REMOTE_ACCESS_THRESHOLD, MEMORY_BIND, MEMORY_KIND,
            VIRTUAL_CHIPLET_CORES, LEASE_DIR, MODE, PINNING_BACKEND, PARTITIONS_RESIZE, CHIPLETS_PER_NODE, RESCAN_INTERVAL, MEASURE_ENABLED,
            MEASURE_CONTROL_SHARE, MEASURE_WINDOW, MEASURE_DESIGN, MEASURE_WASHOUT, MEASURE_HISTORY_DIR, MEASURE_KEY, GUARD, MEASURE_REPORT_DIR, MEASURE_SEED, MEASURE_INJECT_TIME_RATIO, SKEW_MAX_OVER_MEDIAN,
            SKEW_MIN_STAGE_ROWS, SKEW_CONSOLIDATE_BELOW_BYTES, SKEW_WINDOW_QUERIES, WORKERS_PER_HOST, WORKERS);

    private static String durationExpected(Duration minimum)
    {
        return "a duration such as 500ms, 2s or 1m (a bare number is milliseconds), at least " + minimum.toMillis() + "ms";
    }
}
