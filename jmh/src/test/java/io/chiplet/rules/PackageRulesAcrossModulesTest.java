package io.chiplet.rules;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.EvaluationResult;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.jmh.BenchSuite;
import io.chiplet.tpch.TpchQueries;
import io.chiplet.spark.ChipletSparkPlugin;
import io.chiplet.spark.demo.ChipletDemo;
import io.chiplet.trino.ChipletTrinoPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules across modules, over the compiled main classes of core, the command line (wherever its module
 * is), both plugins and the benchmarks: this module sees them all. The table is {@link PackageTable}; each rule is a
 * function of classes and table so that {@link InjectedViolationsTest} can show it fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageRulesAcrossModulesTest
{
    private final Path root = PackageInfos.buildRoot();
    private final JavaClasses classes = new ClassFileImporter().importLocations(mainClassLocations());

    @Test
    void everyPackageOfEveryModuleIsInTheTable()
    {
        assertThat(packagesMissingFromTable(PackageInfos.mainPackages(root).keySet(), PackageTable.MAY_DEPEND_ON)).isEmpty();
        assertThat(packagesMissingFromTable(packagesOf(classes), PackageTable.MAY_DEPEND_ON)).isEmpty();
        // and no rule over a package that is gone: it would pass silently
        assertThat(PackageInfos.mainPackages(root).keySet()).containsAll(PackageTable.MAY_DEPEND_ON.keySet());
    }

    @Test
    void theTableIsWhatEachPackageInfoStates()
    {
        Map<String, Set<String>> stated = PackageInfos.statedRules(root);
        List<String> drift = new ArrayList<>();
        PackageTable.MAY_DEPEND_ON.forEach((name, allowed) -> {
            if (!allowed.equals(stated.get(name))) {
                drift.add(name + ": table " + new TreeSet<>(allowed) + ", package-info " + stated.getOrDefault(name, Set.of("(no '" + PackageInfos.FORM + "' paragraph)")));
            }
        });
        assertThat(drift).isEmpty();
    }

    @Test
    void eachPackageDependsOnlyOnWhatTheTableAllows()
    {
        assertThat(tableViolations(classes, PackageTable.MAY_DEPEND_ON)).isEmpty();
    }

    @Test
    void noPackageCyclesAcrossModules()
    {
        EvaluationResult result = slices().matching("io.chiplet.(**)").should().beFreeOfCycles().evaluate(classes);
        assertThat(result.hasViolation() ? result.getFailureReport().getDetails() : List.of()).isEmpty();
    }

    @Test
    void adaptersUseNoPlanningInternals()
    {
        assertThat(planningInternalUses(classes))
                .as("adapter classes using core's planning internals %s (\"adapter -> internal\"): apply core's targets "
                        + "(WorkerTargets, NodeShare, MemoryBinding, HostShares, ChipletLock) instead, or give those the accessor "
                        + "the adapter needs", PlanningInternals.INTERNALS)
                .isEmpty();
    }

    @Test
    void theRulesSeeEveryModulesClasses()
    {
        // a rule over classes that were not imported passes silently; with the command line in a module of its own
        // (#24), this module needs io.chiplet:chiplet-cli as a test dependency to see it
        assertThat(packagesOf(classes)).as("the packages whose classes these rules see")
                .contains("io.chiplet.placement", "io.chiplet.cli", "io.chiplet.spark.placement", "io.chiplet.trino.placement",
                        "io.chiplet.jmh.workload", "io.chiplet.spark.demo", "io.chiplet.tpch");
    }

    /** The packages of the table's domain that the table does not name. */
    static Set<String> packagesMissingFromTable(Set<String> packages, Map<String, Set<String>> table)
    {
        Set<String> missing = new TreeSet<>(packages);
        missing.removeAll(table.keySet());
        return missing;
    }

    /** Each dependency of ours from a class to a package the table does not allow its package. */
    static List<String> tableViolations(JavaClasses classes, Map<String, Set<String>> table)
    {
        List<String> violations = new ArrayList<>();
        for (JavaClass type : classes) {
            String from = ownPackage(type);
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                String target = dependency.getTargetClass().getBaseComponentType().getPackageName();
                if (target.startsWith("io.chiplet.") && !isGenerated(target) && !PackageTable.allows(table, from, ownPackage(dependency.getTargetClass().getBaseComponentType()))) {
                    violations.add(from + " may not depend on " + target + ": " + dependency.getDescription());
                }
            }
        }
        return violations;
    }

    /** Each use, outside core, of one of core's planning internals: "origin top-level class -> internal". */
    static Set<String> planningInternalUses(JavaClasses classes)
    {
        Set<String> uses = new TreeSet<>();
        for (JavaClass type : classes) {
            if (!PlanningInternals.isAdapter(type.getPackageName())) {
                continue;
            }
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                PlanningInternals.internal(topLevel(target).getName())
                        .ifPresent(internal -> uses.add(topLevel(type).getName() + " -> " + internal));
            }
        }
        return uses;
    }

    static Set<String> packagesOf(JavaClasses classes)
    {
        Set<String> packages = new LinkedHashSet<>();
        classes.forEach(type -> packages.add(ownPackage(type)));
        packages.remove("");
        return new TreeSet<>(packages);
    }

    // JMH's annotation processor writes its classes into a sub-package jmh_generated of the benchmark's package
    private static String ownPackage(JavaClass type)
    {
        String name = type.getPackageName();
        return isGenerated(name) ? name.substring(0, name.lastIndexOf('.')) : name;
    }

    private static boolean isGenerated(String packageName)
    {
        return packageName.endsWith(".jmh_generated");
    }

    private static JavaClass topLevel(JavaClass type)
    {
        JavaClass outer = type;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }

    // the folder or jar each module's main classes come from; the command line's only where it is its own module
    private static Set<Location> mainClassLocations()
    {
        Set<Location> locations = new LinkedHashSet<>();
        for (Class<?> type : List.of(TopologyDiscovery.class, ChipletSparkPlugin.class, ChipletTrinoPlugin.class, BenchSuite.class,
                ChipletDemo.class, TpchQueries.class)) {
            locations.add(location(type));
        }
        try {
            locations.add(location(Class.forName("io.chiplet.cli.ChipletCli")));
        }
        catch (ClassNotFoundException e) {
            // not on this module's class path: the rules over other packages still see its name in their dependencies
        }
        return locations;
    }

    // a module's classes folder, or its jar where the reactor hands this module the packaged one
    private static Location location(Class<?> type)
    {
        try {
            Path path = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isDirectory(path) ? Location.of(path) : Location.of(URI.create("jar:" + path.toUri() + "!/"));
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
