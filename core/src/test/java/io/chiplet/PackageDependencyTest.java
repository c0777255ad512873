package io.chiplet;

import com.tngtech.archunit.lang.ArchRule;
import io.chiplet.discovery.TopologyDiscovery;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** Core's package rules, as each package-info states them (the CLI is the cli module: CliPackageDependencyTest). */
class PackageDependencyTest
        extends PackageRulesTest
{
    PackageDependencyTest()
    {
        super(TopologyDiscovery.class, "io.chiplet", Map.ofEntries(
                        Map.entry("nativeio", List.of()),
                        Map.entry("topology", List.of("nativeio")),
                        Map.entry("affinity", List.of("topology", "nativeio")),
                        Map.entry("binding", List.of("affinity", "placement", "topology")),
                        Map.entry("perf", List.of("nativeio", "topology")),
                        Map.entry("placement", List.of("topology")),
                        Map.entry("adaptive", List.of("perf", "placement")),
                        Map.entry("settings", List.of("placement", "topology", "measure")),
                        Map.entry("discovery", List.of("topology", "affinity")),
                        Map.entry("measure", List.of()),
                        Map.entry("tpch", List.of())),
                Set.of());
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
