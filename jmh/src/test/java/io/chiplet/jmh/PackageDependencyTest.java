package io.chiplet.jmh;

import io.chiplet.PackageRulesTest;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** The benchmarks' package rules, as each package-info states them; the benchmarks package may use all. */
class PackageDependencyTest
        extends PackageRulesTest
{
    PackageDependencyTest()
    {
        super(BenchSuite.class, "io.chiplet.jmh", Map.of(
                        "workload", List.of(),
                        "report", List.of("workload"),
                        "tpch", List.of("report"),
                        "spark", List.of("tpch", "report"),
                        "trino", List.of("tpch", "report")),
                Set.of(""));
    }
}
