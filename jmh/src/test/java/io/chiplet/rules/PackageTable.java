package io.chiplet.rules;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The package rule table of every module (core, the {@code chiplet} command line, both plugins, the benchmarks): for
 * each main package of ours, the other packages of ours it may depend on. A name ending in {@code ..} allows that
 * package and every package below it. Each package-info states its own line in the fixed form {@link PackageInfos}
 * reads; {@link PackageRulesAcrossModulesTest} checks that both agree, that every package of every module is here,
 * and that the compiled classes keep to it. By package name, so it holds wherever a package's module is.
 */
final class PackageTable
{
    /** The rule table: package, then the packages of ours it may depend on. */
    static final Map<String, Set<String>> MAY_DEPEND_ON = table(
            entry("io.chiplet.nativeio"),
            entry("io.chiplet.topology", "io.chiplet.nativeio"),
            entry("io.chiplet.affinity", "io.chiplet.topology", "io.chiplet.nativeio"),
            entry("io.chiplet.binding", "io.chiplet.affinity", "io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.perf", "io.chiplet.nativeio", "io.chiplet.topology"),
            entry("io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.engine"),
            entry("io.chiplet.engine.spark", "io.chiplet.engine", "io.chiplet.placement"),
            entry("io.chiplet.engine.trino", "io.chiplet.engine", "io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.advice", "io.chiplet.engine", "io.chiplet.engine.spark", "io.chiplet.engine.trino", "io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.adaptive", "io.chiplet.perf", "io.chiplet.placement"),
            entry("io.chiplet.slots", "io.chiplet.affinity", "io.chiplet.binding", "io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.settings", "io.chiplet.affinity", "io.chiplet.placement", "io.chiplet.measure", "io.chiplet.topology"),
            entry("io.chiplet.discovery", "io.chiplet.topology", "io.chiplet.affinity"),
            entry("io.chiplet.measure"),
            entry("io.chiplet.wire"),
            entry("io.chiplet.failopen"),
            entry("io.chiplet.tpch"),
            entry("io.chiplet.report", "io.chiplet.measure", "io.chiplet.topology"),
            entry("io.chiplet.cli", "io.chiplet.report", "io.chiplet.nativeio", "io.chiplet.topology", "io.chiplet.affinity", "io.chiplet.binding", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.adaptive", "io.chiplet.settings", "io.chiplet.discovery", "io.chiplet.measure", "io.chiplet.engine", "io.chiplet.advice"),
            entry("io.chiplet.spark.guard", "io.chiplet.failopen"),
            entry("io.chiplet.spark.settings", "io.chiplet.affinity", "io.chiplet.measure", "io.chiplet.placement", "io.chiplet.settings", "io.chiplet.topology"),
            entry("io.chiplet.spark.tpch"),
            entry("io.chiplet.spark.topology", "io.chiplet.spark.settings", "io.chiplet.affinity", "io.chiplet.discovery", "io.chiplet.placement", "io.chiplet.topology", "io.chiplet.binding", "io.chiplet.settings"),
            entry("io.chiplet.spark.skew", "io.chiplet.spark.guard", "io.chiplet.placement"),
            entry("io.chiplet.spark.placement", "io.chiplet.spark.settings", "io.chiplet.spark.topology", "io.chiplet.spark.skew", "io.chiplet.adaptive", "io.chiplet.affinity", "io.chiplet.nativeio", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.topology", "io.chiplet.binding", "io.chiplet.settings", "io.chiplet.slots"),
            entry("io.chiplet.spark.messages", "io.chiplet.spark.settings", "io.chiplet.spark.topology", "io.chiplet.spark.skew", "io.chiplet.spark.placement", "io.chiplet.affinity", "io.chiplet.placement", "io.chiplet.settings", "io.chiplet.wire"),
            entry("io.chiplet.spark.measure", "io.chiplet.spark.guard", "io.chiplet.spark.settings", "io.chiplet.spark.placement", "io.chiplet.measure", "io.chiplet.placement", "io.chiplet.settings", "io.chiplet.topology", "io.chiplet.wire"),
            entry("io.chiplet.spark.events", "io.chiplet.spark.guard", "io.chiplet.spark.messages", "io.chiplet.spark.settings", "io.chiplet.spark.measure", "io.chiplet.measure", "io.chiplet.placement", "io.chiplet.engine", "io.chiplet.settings"),
            entry("io.chiplet.spark.ui", "io.chiplet.spark.events", "io.chiplet.spark.guard", "io.chiplet.report", "io.chiplet.measure", "io.chiplet.topology"),
            entry("io.chiplet.spark.driver", "io.chiplet.spark.events", "io.chiplet.spark.ui", "io.chiplet.spark.guard", "io.chiplet.spark.settings", "io.chiplet.spark.topology", "io.chiplet.spark.messages", "io.chiplet.spark.skew", "io.chiplet.spark.measure", "io.chiplet.affinity", "io.chiplet.settings", "io.chiplet.placement", "io.chiplet.engine", "io.chiplet.engine.spark", "io.chiplet.wire"),
            entry("io.chiplet.spark.executor", "io.chiplet.spark.guard", "io.chiplet.spark.settings", "io.chiplet.spark.topology", "io.chiplet.spark.messages", "io.chiplet.spark.skew", "io.chiplet.spark.placement", "io.chiplet.spark.driver", "io.chiplet.spark.measure", "io.chiplet.affinity", "io.chiplet.measure", "io.chiplet.nativeio", "io.chiplet.placement", "io.chiplet.settings", "io.chiplet.topology", "io.chiplet.report"),
            entry("io.chiplet.spark", "io.chiplet.spark..", "io.chiplet.nativeio", "io.chiplet.topology", "io.chiplet.affinity", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.adaptive", "io.chiplet.settings", "io.chiplet.discovery", "io.chiplet.measure"),
            entry("io.chiplet.spark.demo", "io.chiplet.spark..", "io.chiplet.nativeio", "io.chiplet.topology", "io.chiplet.affinity", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.adaptive", "io.chiplet.settings", "io.chiplet.discovery", "io.chiplet.measure", "io.chiplet.tpch", "io.chiplet.engine", "io.chiplet.engine.spark", "io.chiplet.slots"),
            entry("io.chiplet.trino.guard", "io.chiplet.failopen"),
            entry("io.chiplet.trino.cluster"),
            entry("io.chiplet.trino.measure", "io.chiplet.measure", "io.chiplet.settings"),
            entry("io.chiplet.trino.placement", "io.chiplet.trino.measure", "io.chiplet.adaptive", "io.chiplet.affinity", "io.chiplet.measure", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.topology"),
            entry("io.chiplet.trino.skew", "io.chiplet.placement"),
            entry("io.chiplet.trino.event", "io.chiplet.trino.guard", "io.chiplet.trino.skew", "io.chiplet.trino.measure", "io.chiplet.placement", "io.chiplet.settings"),
            entry("io.chiplet.trino.session", "io.chiplet.trino.guard", "io.chiplet.trino.skew", "io.chiplet.trino.cluster", "io.chiplet.discovery", "io.chiplet.placement", "io.chiplet.topology", "io.chiplet.settings", "io.chiplet.engine", "io.chiplet.engine.trino"),
            entry("io.chiplet.trino.connector", "io.chiplet.trino.guard", "io.chiplet.trino.placement", "io.chiplet.trino.skew", "io.chiplet.trino.cluster", "io.chiplet.trino.measure", "io.chiplet.affinity", "io.chiplet.discovery", "io.chiplet.measure", "io.chiplet.placement", "io.chiplet.settings", "io.chiplet.topology", "io.chiplet.binding", "io.chiplet.wire"),
            entry("io.chiplet.trino", "io.chiplet.trino..", "io.chiplet.nativeio", "io.chiplet.topology", "io.chiplet.affinity", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.adaptive", "io.chiplet.settings", "io.chiplet.discovery", "io.chiplet.measure"),
            entry("io.chiplet.jmh.workload", "io.chiplet.affinity", "io.chiplet.discovery", "io.chiplet.placement", "io.chiplet.topology", "io.chiplet.binding", "io.chiplet.settings"),
            entry("io.chiplet.jmh.report", "io.chiplet.jmh.workload", "io.chiplet.discovery", "io.chiplet.topology"),
            entry("io.chiplet.jmh.tpch", "io.chiplet.jmh.report", "io.chiplet.measure"),
            entry("io.chiplet.jmh.spark", "io.chiplet.jmh.tpch", "io.chiplet.jmh.report", "io.chiplet.measure", "io.chiplet.engine.spark", "io.chiplet.tpch", "io.chiplet.spark", "io.chiplet.spark.tpch"),
            entry("io.chiplet.jmh.trino", "io.chiplet.jmh.tpch", "io.chiplet.jmh.report", "io.chiplet.measure", "io.chiplet.tpch", "io.chiplet.trino", "io.chiplet.trino.connector", "io.chiplet.trino.measure", "io.chiplet.trino.session"),
            entry("io.chiplet.jmh", "io.chiplet.jmh..", "io.chiplet.nativeio", "io.chiplet.topology", "io.chiplet.affinity", "io.chiplet.perf", "io.chiplet.placement", "io.chiplet.adaptive", "io.chiplet.settings", "io.chiplet.discovery", "io.chiplet.measure", "io.chiplet.tpch", "io.chiplet.spark", "io.chiplet.spark.placement"));

    private PackageTable() {}

    private static Map.Entry<String, Set<String>> entry(String name, String... mayDependOn)
    {
        return Map.entry(name, Set.of(mayDependOn));
    }

    @SafeVarargs
    private static Map<String, Set<String>> table(Map.Entry<String, Set<String>>... entries)
    {
        Map<String, Set<String>> table = new TreeMap<>();
        for (Map.Entry<String, Set<String>> entry : entries) {
            if (table.put(entry.getKey(), entry.getValue()) != null) {
                throw new IllegalStateException("package twice in the table: " + entry.getKey());
            }
        }
        return Map.copyOf(table);
    }

    /** Whether {@code target} is {@code from} itself or among the packages the table lets {@code from} depend on. */
    static boolean allows(Map<String, Set<String>> table, String from, String target)
    {
        if (from.equals(target)) {
            return true;
        }
        for (String allowed : table.getOrDefault(from, Set.of())) {
            if (allowed.endsWith("..") ? target.equals(allowed.substring(0, allowed.length() - 2)) || target.startsWith(allowed.substring(0, allowed.length() - 1)) : target.equals(allowed)) {
                return true;
            }
        }
        return false;
    }
}
