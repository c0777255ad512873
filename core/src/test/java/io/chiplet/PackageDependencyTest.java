package io.chiplet;

import com.tngtech.archunit.lang.ArchRule;
import io.chiplet.discovery.TopologyDiscovery;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** Core's package rules, as each package-info states them. */
class PackageDependencyTest
{
    /** For each package (below {@code io.chiplet}), the other core packages it may depend on; cli may use all. */
    private static final Map<String, List<String>> MAY_DEPEND_ON = Map.of(
            "nativeio", List.of(),
            "topology", List.of("nativeio"),
            "affinity", List.of("topology", "nativeio"),
            "perf", List.of("nativeio", "topology"),
            "placement", List.of("topology"),
            "settings", List.of("placement", "topology"),
            "discovery", List.of("topology", "affinity"));

    private static final PackageRules RULES = PackageRules.of(TopologyDiscovery.class, "io.chiplet");

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
    void placementDecidesWithoutIoClocksOrThreads()
    {
        ArchRule rule = noClasses().that().resideInAPackage("io.chiplet.placement")
                .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..", "java.util.concurrent..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock");
        assertThat(RULES.violations(rule)).isEmpty();
    }

    @Test
    void theRulesSeeEveryPackage()
    {
        // a rule over a package that is not there passes silently, and so would one over a wrong class path
        assertThat(RULES.packages()).containsAll(MAY_DEPEND_ON.keySet()).contains("cli");
    }
}
