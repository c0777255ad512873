package io.chiplet;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.chiplet.discovery.TopologyDiscovery;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's package rules, as each package-info states them: no package cycles, and each package depends only on the
 * core packages it may. Reads core's compiled main classes, not the tests'.
 */
class PackageDependencyTest
{
    private static final String CORE = "io.chiplet";

    /** For each package (below {@code io.chiplet}), the other core packages it may depend on; cli may use all. */
    private static final Map<String, List<String>> MAY_DEPEND_ON = Map.of(
            "nativeio", List.of(),
            "topology", List.of("nativeio"),
            "affinity", List.of("topology", "nativeio"),
            "perf", List.of("nativeio", "topology"),
            "placement", List.of("topology"),
            "settings", List.of("placement", "topology"),
            "discovery", List.of("topology", "affinity"),
            "measure", List.of(),
            "tpch", List.of());

    private static final JavaClasses CLASSES = new ClassFileImporter().importPath(mainClasses());

    @Test
    void noPackageCycles()
    {
        assertThat(violations(slices().matching(CORE + ".(**)").should().beFreeOfCycles())).isEmpty();
    }

    @Test
    void eachPackageDependsOnlyOnThePackagesItMay()
    {
        List<String> violations = new ArrayList<>();
        MAY_DEPEND_ON.forEach((name, allowed) -> {
            String[] own = Stream.concat(Stream.of(name), allowed.stream()).map(other -> CORE + "." + other).toArray(String[]::new);
            violations.addAll(violations(noClasses().that().resideInAPackage(CORE + "." + name)
                    .should().dependOnClassesThat(resideInAPackage(CORE + "..").and(not(resideInAnyPackage(own))))));
        });
        assertThat(violations).isEmpty();
    }

    @Test
    void placementDecidesWithoutIoClocksOrThreads()
    {
        ArchRule rule = noClasses().that().resideInAPackage(CORE + ".placement")
                .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net..", "java.util.concurrent..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock");
        assertThat(violations(rule)).isEmpty();
    }

    @Test
    void theRulesSeeEveryPackage()
    {
        // A rule over a package that is not there passes silently; so does a misplaced class path.
        assertThat(CLASSES.stream().map(type -> type.getPackageName().substring(CORE.length() + 1)).distinct())
                .containsAll(MAY_DEPEND_ON.keySet())
                .contains("cli");
    }

    private static List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(CLASSES);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }

    private static Path mainClasses()
    {
        try {
            return Path.of(TopologyDiscovery.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
