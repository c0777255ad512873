package io.chiplet.spark;

import io.chiplet.PackageRulesTest;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Spark plugin's package rules, as each package-info states them; the entry package and demo may use all. */
class PackageDependencyTest
        extends PackageRulesTest
{
    PackageDependencyTest()
    {
        super(ChipletSparkPlugin.class, "io.chiplet.spark", Map.of(
                        "guard", List.of(),
                        "settings", List.of(),
                        "tpch", List.of(),
                        "topology", List.of("settings"),
                        "skew", List.of("guard"),
                        "placement", List.of("settings", "topology", "skew"),
                        "messages", List.of("settings", "topology", "skew", "placement"),
                        "measure", List.of("guard", "settings", "placement"),
                        "driver", List.of("guard", "settings", "topology", "messages", "skew", "measure"),
                        "executor", List.of("guard", "settings", "topology", "messages", "skew", "placement", "driver", "measure")),
                Set.of("", "demo"));
    }
}
