package io.chiplet;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's purity rules: the decision packages keep no I/O, clocks or threads. Which package may depend on which, in
 * every module, is the cross-module rule table in the jmh module's {@code io.chiplet.rules} tests, which sees all
 * modules' classes.
 */
class PackageDependencyTest
{
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.chiplet.placement", "io.chiplet.engine", "io.chiplet.advice", "io.chiplet.measure", "io.chiplet.adaptive");

    @Test
    void theRulesSeeTheDecisionPackages()
    {
        assertThat(classes.stream().map(type -> type.getPackageName()).distinct())
                .contains("io.chiplet.placement", "io.chiplet.engine", "io.chiplet.engine.spark", "io.chiplet.engine.trino", "io.chiplet.advice",
                        "io.chiplet.measure", "io.chiplet.adaptive");
    }

    @Test
    void placementItsEngineDialectsAndTheAdviceDecideWithoutIoClocksOrThreads()
    {
        ArchRule rule = noClasses().that().resideInAnyPackage("io.chiplet.placement", "io.chiplet.engine..", "io.chiplet.advice")
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

    private List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(classes);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }
}
