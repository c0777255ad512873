package io.chiplet.trino;

import io.chiplet.PackageRulesTest;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Trino plugin's package rules, as each package-info states them; the entry package may use all. */
class PackageDependencyTest
        extends PackageRulesTest
{
    PackageDependencyTest()
    {
        super(ChipletTrinoPlugin.class, "io.chiplet.trino", Map.of(
                        "guard", List.of(),
                        "cluster", List.of(),
                        "measure", List.of(),
                        "placement", List.of("measure"),
                        "skew", List.of(),
                        "event", List.of("guard", "skew", "measure"),
                        "session", List.of("guard", "skew", "cluster"),
                        "connector", List.of("guard", "placement", "skew", "cluster", "measure")),
                Set.of(""));
    }
}
