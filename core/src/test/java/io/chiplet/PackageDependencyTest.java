package io.chiplet;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

    @Test
    void planningItsEngineDialectsAndTheAdviceHaveNoClassCycles()
    {
        // Within and across these packages no class depends, however indirectly, on one that depends on it: the
        // planner does not know its targets' finishing, a dialect does not know the advice that composes it.
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass type : classes) {
            String from = topLevel(type).getName();
            if (!inShapedPackages(from)) {
                continue;
            }
            Set<String> targets = uses.computeIfAbsent(from, _ -> new TreeSet<>());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                String to = topLevel(dependency.getTargetClass().getBaseComponentType()).getName();
                if (!to.equals(from) && inShapedPackages(to)) {
                    targets.add(to);
                }
            }
        }
        assertThat(cycles(uses)).isEmpty();
    }

    @Test
    void theCycleCheckFindsACycle()
    {
        // injected: Advice -> TrinoSessionSettings -> Advice, as before #34; PlanFormatter only uses them
        Map<String, Set<String>> uses = Map.of("Advice", Set.of("TrinoSessionSettings"), "TrinoSessionSettings", Set.of("Advice"),
                "PlanFormatter", Set.of("Advice"));
        assertThat(cycles(uses)).containsExactly("Advice", "TrinoSessionSettings");
    }

    private static boolean inShapedPackages(String className)
    {
        String name = className.substring(0, Math.max(0, className.lastIndexOf('.')));
        return name.equals("io.chiplet.placement") || name.equals("io.chiplet.advice") || name.equals("io.chiplet.engine") || name.startsWith("io.chiplet.engine.");
    }

    private static JavaClass topLevel(JavaClass type)
    {
        JavaClass outer = type;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }

    /** Each class that reaches itself again through {@code uses}, with the class it is reached from first. */
    private static Set<String> cycles(Map<String, Set<String>> uses)
    {
        Set<String> cycles = new TreeSet<>();
        for (String start : uses.keySet()) {
            Deque<String> open = new ArrayDeque<>(uses.get(start));
            Set<String> seen = new HashSet<>();
            while (!open.isEmpty()) {
                String next = open.pop();
                if (next.equals(start)) {
                    cycles.add(start);
                    break;
                }
                if (seen.add(next)) {
                    open.addAll(uses.getOrDefault(next, Set.of()));
                }
            }
        }
        return cycles;
    }

    private List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(classes);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }
}
