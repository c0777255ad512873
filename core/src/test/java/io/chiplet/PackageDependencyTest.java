package io.chiplet;

import com.tngtech.archunit.lang.ArchRule;
import io.chiplet.discovery.TopologyDiscovery;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** Core's package rules, as each package-info states them; cli may depend on every other package. */
class PackageDependencyTest
        extends PackageRulesTest
{
    PackageDependencyTest()
    {
        super(TopologyDiscovery.class, "io.chiplet", Map.of(
                        "nativeio", List.of(),
                        "topology", List.of("nativeio"),
                        "affinity", List.of("topology", "nativeio"),
                        "perf", List.of("nativeio", "topology"),
                        "placement", List.of("topology"),
                        "adaptive", List.of("perf", "placement"),
                        "settings", List.of("placement", "topology", "measure"),
                        "discovery", List.of("topology", "affinity"),
                        "measure", List.of(),
                        "tpch", List.of()),
                Set.of("cli"));
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
        assertThat(violations(rule)).isEmpty();
    }

    @Test
    void theInPlaceComparisonKeepsNoClocksOrThreads()
    {
        // The engines own the clock, the threads and the files; measure gets what they read and returns text.
        ArchRule rule = noClasses().that().resideInAPackage("io.chiplet.measure")
                .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..", "java.util.concurrent..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock");
        assertThat(violations(rule)).isEmpty();
    }

    @Test
    void theAdaptiveLoopKeepsNoClocksOrThreads()
    {
        // The engines own the timer and the thread; the loop is stepped with what they measured.
        ArchRule rule = noClasses().that().resideInAPackage("io.chiplet.adaptive")
                .should().dependOnClassesThat().resideInAnyPackage("java.util.concurrent..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock");
        assertThat(violations(rule)).isEmpty();
    }
}
