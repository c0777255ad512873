package io.chiplet.settings;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each plugin's settings must do with core's {@link PluginSettings}: accept and reject the same values as the
 * declaration (so Spark and Trino accept and reject the same values for the same setting, whatever the key is called),
 * report a rejected one with the declaration's wording, and list every setting in the docs with its default. Both
 * plugins run this against their own parser; the values are written out here, once, for both.
 */
public abstract class PluginSettingsContract
{
    /** Values every plugin must accept, by declaration. */
    public static final Map<Setting<?>, List<String>> ACCEPTED = Map.ofEntries(
            Map.entry(PluginSettings.ENABLED, List.of("true", "FALSE", "False")),
            Map.entry(PluginSettings.POLICY, List.of("wicp-local", "WIC", "adaptive", "wicp_mixed")),
            Map.entry(PluginSettings.FS_ROOT, List.of("/snapshots/epyc")),
            Map.entry(PluginSettings.ADAPTIVE_INTERVAL, List.of("10", "500", "500ms", "2s", "1m", "10ms")),
            Map.entry(PluginSettings.REMOTE_ACCESS_THRESHOLD, List.of("0", "300", "2.5")),
            Map.entry(PluginSettings.MEMORY_BIND, List.of("true", "false")),
            Map.entry(PluginSettings.MEMORY_KIND, List.of("dram", "hbm", "cxl-pmem")),
            Map.entry(PluginSettings.VIRTUAL_CHIPLET_CORES, List.of("0", "4")),
            Map.entry(PluginSettings.LEASE_DIR, List.of("/run/chiplet")),
            Map.entry(PluginSettings.MODE, List.of("task", "EXECUTOR", "auto")),
            Map.entry(PluginSettings.PINNING_BACKEND, List.of("ffm", "OpenHFT")),
            Map.entry(PluginSettings.PARTITIONS_RESIZE, List.of("true", "false")),
            Map.entry(PluginSettings.CHIPLETS_PER_NODE, List.of("all", "ALL", "1", "3")),
            Map.entry(PluginSettings.RESCAN_INTERVAL, List.of("10ms", "1s", "40")),
            Map.entry(PluginSettings.MEASURE_ENABLED, List.of("true", "false")),
            Map.entry(PluginSettings.MEASURE_CONTROL_SHARE, List.of("0", "0.1", "0.5")),
            Map.entry(PluginSettings.MEASURE_WINDOW, List.of("100ms", "30s", "1m", "100")),
            Map.entry(PluginSettings.MEASURE_DESIGN, List.of("window", "TASK")),
            Map.entry(PluginSettings.MEASURE_WASHOUT, List.of("0", "500ms", "1s")),
            Map.entry(PluginSettings.MEASURE_HISTORY_DIR, List.of("/tmp/history")),
            Map.entry(PluginSettings.MEASURE_KEY, List.of("etl-daily", "a key")),
            Map.entry(PluginSettings.GUARD, List.of("auto", "ALWAYS")),
            Map.entry(PluginSettings.MEASURE_REPORT_DIR, List.of("/tmp/reports")),
            Map.entry(PluginSettings.MEASURE_SEED, List.of("42", "-7")),
            Map.entry(PluginSettings.MEASURE_INJECT_TIME_RATIO, List.of("0.1", "0.8", "1.25", "10")),
            Map.entry(PluginSettings.SKEW_MAX_OVER_MEDIAN, List.of("1.01", "2.0", "3")),
            Map.entry(PluginSettings.SKEW_MIN_STAGE_ROWS, List.of("0", "10000")),
            Map.entry(PluginSettings.SKEW_CONSOLIDATE_BELOW_BYTES, List.of("0", "1048576")),
            Map.entry(PluginSettings.SKEW_WINDOW_QUERIES, List.of("0", "4", "12")),
            Map.entry(PluginSettings.WORKERS_PER_HOST, List.of("1", "8")),
            Map.entry(PluginSettings.WORKERS, List.of("1", "40")));

    /** Values every plugin must reject, by declaration. */
    public static final Map<Setting<?>, List<String>> REJECTED = Map.ofEntries(
            Map.entry(PluginSettings.ENABLED, List.of("yes", "1", "")),
            Map.entry(PluginSettings.POLICY, List.of("fastest", "")),
            Map.entry(PluginSettings.FS_ROOT, List.of("")),
            Map.entry(PluginSettings.ADAPTIVE_INTERVAL, List.of("9", "5ms", "0", "-5", "1.5", "soon", "2h")),
            Map.entry(PluginSettings.REMOTE_ACCESS_THRESHOLD, List.of("-1", "-0.5", "NaN", "Infinity", "many")),
            Map.entry(PluginSettings.MEMORY_BIND, List.of("1", "on")),
            Map.entry(PluginSettings.MEMORY_KIND, List.of("gpu", "unknown", "")),
            Map.entry(PluginSettings.VIRTUAL_CHIPLET_CORES, List.of("-2", "many", "99999999999", "1.5")),
            Map.entry(PluginSettings.LEASE_DIR, List.of("")),
            Map.entry(PluginSettings.MODE, List.of("stage", "")),
            Map.entry(PluginSettings.PINNING_BACKEND, List.of("jni", "")),
            Map.entry(PluginSettings.PARTITIONS_RESIZE, List.of("no")),
            Map.entry(PluginSettings.CHIPLETS_PER_NODE, List.of("0", "-1", "some")),
            Map.entry(PluginSettings.RESCAN_INTERVAL, List.of("9ms", "soon")),
            Map.entry(PluginSettings.MEASURE_ENABLED, List.of("yes")),
            Map.entry(PluginSettings.MEASURE_CONTROL_SHARE, List.of("-0.1", "0.51", "1", "ten")),
            Map.entry(PluginSettings.MEASURE_WINDOW, List.of("99ms", "99", "long")),
            Map.entry(PluginSettings.MEASURE_DESIGN, List.of("stage", "")),
            Map.entry(PluginSettings.MEASURE_WASHOUT, List.of("-1", "soon")),
            Map.entry(PluginSettings.MEASURE_HISTORY_DIR, List.of("")),
            Map.entry(PluginSettings.MEASURE_KEY, List.of("", "  ")),
            Map.entry(PluginSettings.GUARD, List.of("never", "")),
            Map.entry(PluginSettings.MEASURE_REPORT_DIR, List.of("")),
            Map.entry(PluginSettings.MEASURE_SEED, List.of("1.5", "x", "")),
            Map.entry(PluginSettings.MEASURE_INJECT_TIME_RATIO, List.of("0.09", "10.5", "0", "x")),
            Map.entry(PluginSettings.SKEW_MAX_OVER_MEDIAN, List.of("1", "0.5", "Infinity", "x")),
            Map.entry(PluginSettings.SKEW_MIN_STAGE_ROWS, List.of("-1", "x")),
            Map.entry(PluginSettings.SKEW_CONSOLIDATE_BELOW_BYTES, List.of("-1", "1MB")),
            Map.entry(PluginSettings.SKEW_WINDOW_QUERIES, List.of("-1", "x")),
            Map.entry(PluginSettings.WORKERS_PER_HOST, List.of("0", "two")),
            Map.entry(PluginSettings.WORKERS, List.of("0", "three")));

    /** The plugin's key for each declaration it reads, one table per settings class that reads some. */
    protected abstract List<Map<Setting<?>, String>> keyTables();

    /** The plugin's key for each declaration it reads: its tables together, none declared twice. */
    protected final Map<Setting<?>, String> keys()
    {
        Map<Setting<?>, String> keys = new HashMap<>();
        for (Map<Setting<?>, String> table : keyTables()) {
            table.forEach((setting, key) -> {
                String before = keys.put(setting, key);
                assertThat(before).as("%s read under both %s and %s", setting.stem(), before, key).isNull();
            });
        }
        return keys;
    }

    /**
     * Reads {@code key = value} (nothing else given) the way the plugin reads its settings.
     *
     * @return what the plugin said was expected, where it rejected the value; empty where it accepted it
     */
    protected abstract Optional<String> rejection(String key, String value);

    /** Every key the plugin reads (where it lists them to reject unknown ones); each must map to a declaration. */
    protected abstract Set<String> readKeys();

    /** The docs pages that list the plugin's settings in tables of {@code | `key` | default | meaning |} rows. */
    protected abstract List<Path> docs();

    /** The default as the plugin's docs write it: the declaration's, unless the plugin's key counts another unit. */
    protected String documentedDefault(Setting<?> setting)
    {
        return setting.defaultValue().orElseThrow();
    }

    @Test
    void acceptsAndRejectsWhatCoreDeclares()
    {
        List<String> wrong = new ArrayList<>();
        keys().forEach((setting, key) -> {
            for (String value : ACCEPTED.get(setting)) {
                rejection(key, value).ifPresent(expected -> wrong.add("%s = '%s' rejected (%s) but %s accepts it".formatted(key, value, expected, setting.stem())));
            }
            for (String value : REJECTED.get(setting)) {
                Optional<String> expected = rejection(key, value);
                if (expected.isEmpty()) {
                    wrong.add("%s = '%s' accepted but %s rejects it".formatted(key, value, setting.stem()));
                }
                else if (!expected.get().equals(setting.expected())) {
                    wrong.add("%s = '%s': said '%s', core declares '%s'".formatted(key, value, expected.get(), setting.expected()));
                }
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyKeyThePluginReadsIsDeclaredInCore()
    {
        assertThat(keys().values()).containsExactlyInAnyOrderElementsOf(readKeys());
        assertThat(PluginSettings.ALL).containsAll(keys().keySet());
    }

    @Test
    void everySettingIsInTheDocsWithItsDefault()
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        for (Path page : docs()) {
            lines.addAll(Files.readAllLines(page));
        }
        List<String> wrong = new ArrayList<>();
        keys().forEach((setting, key) -> {
            Optional<String> row = lines.stream().filter(line -> line.startsWith("| `" + key + "` |")).findFirst();
            if (row.isEmpty()) {
                wrong.add(key + ": no row in " + docs());
                return;
            }
            String defaultCell = row.get().split("\\|")[2];
            if (setting.defaultValue().isPresent() && !defaultCell.contains("`" + documentedDefault(setting) + "`")) {
                wrong.add("%s: docs give the default as%s, core declares `%s`".formatted(key, defaultCell, documentedDefault(setting)));
            }
        });
        assertThat(wrong).isEmpty();
    }
}
