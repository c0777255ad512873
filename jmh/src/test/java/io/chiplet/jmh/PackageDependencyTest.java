package io.chiplet.jmh;

import io.chiplet.PackageRules;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The benchmarks' package rules, as each package-info states them; the root package is a slice of its own too. */
class PackageDependencyTest
{
    /** Per sub-package, the module's other packages it may use; the benchmarks package may use all. */
    private static final Map<String, List<String>> MAY_DEPEND_ON = Map.of(
            "workload", List.of(),
            "report", List.of("workload"),
            "tpch", List.of("report"),
            "spark", List.of("tpch", "report"),
            "trino", List.of("tpch", "report"));

    private static final PackageRules RULES = PackageRules.of(BenchSuite.class, "io.chiplet.jmh");

    @Test
    void noPackageCycles()
    {
        assertThat(RULES.cycles()).isEmpty();
    }

    @Test
    void eachPackageDependsOnlyOnThePackagesItMay()
    {
        assertThat(RULES.dependenciesNotAllowed(MAY_DEPEND_ON)).isEmpty();
    }

    @Test
    void theRulesSeeEveryPackage()
    {
        // a rule over a package that is not there passes silently, and so would one over a wrong class path
        assertThat(RULES.packages()).containsAll(MAY_DEPEND_ON.keySet()).contains("");
    }
}
