package io.chiplet.jmh;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
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
 * The benchmarks' package rules, as each package-info states them: no package cycles (the benchmarks package
 * included), and each sub-package depends only on the benchmark packages it may. Reads jmh's compiled main classes
 * (JMH's generated ones too), not the tests'.
 */
class PackageDependencyTest
{
    private static final String BENCH = "io.chiplet.jmh";

    /** For each sub-package, the other benchmark packages it may depend on; the benchmarks package may use all. */
    private static final Map<String, List<String>> MAY_DEPEND_ON = Map.of(
            "workload", List.of(),
            "report", List.of("workload"),
            "tpch", List.of("report"),
            "spark", List.of("tpch", "report"),
            "trino", List.of("tpch", "report"));

    private static final JavaClasses CLASSES = new ClassFileImporter().importPath(mainClasses());

    @Test
    void noPackageCycles()
    {
        // (**) makes the benchmarks package a slice of its own too
        assertThat(violations(slices().matching("io.chiplet.(**)").should().beFreeOfCycles())).isEmpty();
    }

    @Test
    void eachPackageDependsOnlyOnThePackagesItMay()
    {
        List<String> violations = new ArrayList<>();
        MAY_DEPEND_ON.forEach((name, allowed) -> {
            String[] own = Stream.concat(Stream.of(name), allowed.stream()).map(other -> BENCH + "." + other).toArray(String[]::new);
            violations.addAll(violations(noClasses().that().resideInAPackage(BENCH + "." + name)
                    .should().dependOnClassesThat(resideInAPackage(BENCH + "..").and(not(resideInAnyPackage(own))))));
        });
        assertThat(violations).isEmpty();
    }

    @Test
    void theRulesSeeEveryPackage()
    {
        // A rule over a package that is not there passes silently; so does a misplaced class path.
        assertThat(CLASSES.stream().map(type -> type.getPackageName()).distinct())
                .contains(BENCH)
                .containsAll(MAY_DEPEND_ON.keySet().stream().map(name -> BENCH + "." + name).toList());
    }

    private static List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(CLASSES);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }

    private static Path mainClasses()
    {
        try {
            return Path.of(BenchSuite.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
