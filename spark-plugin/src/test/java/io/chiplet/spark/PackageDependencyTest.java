package io.chiplet.spark;

import io.chiplet.PackageRules;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The Spark plugin's package rules, as each package-info states them; the root package is a slice of its own too. */
class PackageDependencyTest
{
    /** Per sub-package, the module's other packages it may use; the entry package and demo may use all. */
    private static final Map<String, List<String>> MAY_DEPEND_ON = Map.of(
            "guard", List.of(),
            "settings", List.of(),
            "tpch", List.of(),
            "topology", List.of("settings"),
            "skew", List.of("guard"),
            "placement", List.of("settings", "topology", "skew"),
            "messages", List.of("settings", "topology", "skew", "placement"),
            "driver", List.of("guard", "settings", "topology", "messages", "skew"),
            "executor", List.of("guard", "settings", "topology", "messages", "skew", "placement", "driver"));

    private static final PackageRules RULES = PackageRules.of(ChipletSparkPlugin.class, "io.chiplet.spark");

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
        assertThat(RULES.packages()).containsAll(MAY_DEPEND_ON.keySet()).contains("", "demo");
    }
}
