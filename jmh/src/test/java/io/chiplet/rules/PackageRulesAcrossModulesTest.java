package io.chiplet.rules;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules across modules, over the compiled main classes of every module of the build (found from its
 * folders, not listed: core, the command line, both plugins, the benchmarks, and any module that comes next): this
 * module sees them all. The table is {@link PackageTable}; core's API for adapters is {@link CoreApi}, and an adapter
 * is any class of ours outside core's packages. Each rule is a function of classes and tables so that
 * {@link InjectedViolationsTest} can show it fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageRulesAcrossModulesTest
{
    private final Path root = PackageInfos.buildRoot();
    private final JavaClasses classes = new ClassFileImporter().importLocations(mainClassLocations(root));
    private final Set<String> corePackages = PackageInfos.packagesOf(root, "core");

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
    void noClassCyclesWithinAPackageOfCore()
    {
        assertThat(classCyclesWithinPackages(classes, corePackages))
                .as("classes of one core package that depend on each other in a cycle (\"package: classes of the cycle\"): move what the lower class "
                        + "needs from the higher one down (a nested type, a helper), or hand the lower one what it reads")
                .isEmpty();
    }

    @Test
    void everyPackageOfCoreIsInItsApiForAdapters()
    {
        assertThat(CoreApi.FOR_ADAPTERS.keySet()).as("core's packages (from core/src/main) against CoreApi.FOR_ADAPTERS")
                .containsExactlyInAnyOrderElementsOf(corePackages);
    }

    @Test
    void adaptersUseOnlyCoresApi()
    {
        assertThat(coreApiViolations(classes, corePackages, CoreApi.FOR_ADAPTERS))
                .as("adapter classes using core outside its API for adapters (\"adapter -> core class\", CoreApi.FOR_ADAPTERS): apply core's targets "
                        + "(WorkerPlacements, PlacementDomain, MemoryBinding, HostDivision, ChipletLock) instead, or give a listed class the accessor the adapter needs")
                .isEmpty();
    }

    @Test
    void adaptersNameNoPolicyConstantOutsideTheirSettingsTranslation()
    {
        assertThat(policyConstantUses(classes, corePackages))
                .as("adapter classes naming a Policy constant (\"adapter -> Policy.X\"): ask the policy what it means (unit(), slotOrder(), "
                        + "adaptsAtRunTime(), processBinding(), bindsWorkers()) instead; only a settings translation (*Settings, *Config, a .settings package) "
                        + "may name one, e.g. as its default")
                .isEmpty();
    }

    @Test
    void theRulesSeeEveryModulesClasses()
    {
        // a rule over classes that were not imported passes silently: every module with main sources (found, not
        // listed) is imported, and each of its packages has classes here
        assertThat(PackageInfos.modules(root)).as("modules with main sources").contains("core", "cli", "spark-plugin", "trino-plugin", "jmh", "tpch", "demo");
        assertThat(packagesOf(classes)).as("the packages whose classes these rules see").containsAll(PackageInfos.mainPackages(root).keySet());
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

    /**
     * Each use by an adapter (a class of ours in no package of core's, so any module's, a new one's too) of a class of
     * core that {@code api} does not open to adapters: "adapter top-level class -> core top-level class".
     */
    static Set<String> coreApiViolations(JavaClasses classes, Set<String> corePackages, Map<String, Set<String>> api)
    {
        Set<String> uses = new TreeSet<>();
        for (JavaClass type : classes) {
            if (!isAdapter(type, corePackages)) {
                continue;
            }
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = topLevel(dependency.getTargetClass().getBaseComponentType());
                if (corePackages.contains(target.getPackageName()) && !CoreApi.allows(api, target.getPackageName(), target.getSimpleName())) {
                    uses.add(topLevel(type).getName() + " -> " + target.getName());
                }
            }
        }
        return uses;
    }

    /**
     * Each constant of core's {@code Policy} an adapter names outside its settings translation: "adapter top-level class
     * -> Policy.CONSTANT". A comparison ({@code ==}), a {@code switch} (its synthetic switch map reads the constants) or
     * an argument alike: the adapter decided what a policy means, which the policy says itself.
     */
    static Set<String> policyConstantUses(JavaClasses classes, Set<String> corePackages)
    {
        Set<String> uses = new TreeSet<>();
        for (JavaClass type : classes) {
            if (!isAdapter(type, corePackages) || isSettingsTranslation(topLevel(type))) {
                continue;
            }
            for (JavaFieldAccess access : type.getFieldAccessesFromSelf()) {
                JavaClass owner = access.getTargetOwner();
                if (owner.getName().equals(POLICY) && owner.isEnum() && isEnumConstant(owner, access.getName())) {
                    uses.add(topLevel(type).getName() + " -> Policy." + access.getName());
                }
            }
        }
        return uses;
    }

    private static final String POLICY = "io.chiplet.placement.Policy";

    /**
     * Each cycle among the top-level classes of one of {@code packages} (a nested class counts as its top-level one),
     * as "package: A, B, C" (the classes of one strongly connected set, sorted). One shape is no cycle: an interface
     * naming a class that implements it, where the interface's static factory picks its implementation (the native
     * paths' {@code *Calls.forPath}, {@code PinningBackend.fromName}) or a sealed interface permits its records. The
     * interface is the one place that says which implementations exist; the implementations depend on it, not on each
     * other, so the pair is one concept, and splitting the factory out would only add a class.
     */
    static List<String> classCyclesWithinPackages(JavaClasses classes, Set<String> packages)
    {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (JavaClass type : classes) {
            JavaClass from = topLevel(type);
            if (!packages.contains(from.getPackageName())) {
                continue;
            }
            Set<String> targets = edges.computeIfAbsent(from.getName(), name -> new TreeSet<>());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass to = topLevel(dependency.getTargetClass().getBaseComponentType());
                if (to.getPackageName().equals(from.getPackageName()) && !to.equals(from) && !(from.isInterface() && to.isAssignableTo(from.getName()))) {
                    targets.add(to.getName());
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : stronglyConnected(edges)) {
            if (component.size() > 1) {
                String first = component.iterator().next();
                cycles.add(first.substring(0, first.lastIndexOf('.')) + ": "
                        + String.join(", ", component.stream().map(name -> name.substring(name.lastIndexOf('.') + 1)).toList()));
            }
        }
        return cycles;
    }

    /** Tarjan's strongly connected components of {@code edges}, each sorted, in the order they close. */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> edges)
    {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> components = new ArrayList<>();
        for (String start : edges.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, edges, index, low, stack, onStack, components);
            }
        }
        return components;
    }

    private static void connect(String node, Map<String, Set<String>> edges, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
            Set<String> onStack, List<Set<String>> components)
    {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        for (String next : edges.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, edges, index, low, stack, onStack, components);
                low.put(node, Math.min(low.get(node), low.get(next)));
            }
            else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            }
            while (!member.equals(node));
            components.add(component);
        }
    }

    private static boolean isEnumConstant(JavaClass owner, String field)
    {
        return owner.getEnumConstants().stream().anyMatch(constant -> constant.name().equals(field));
    }

    /** An adapter's class: ours, in no package of core's. */
    private static boolean isAdapter(JavaClass type, Set<String> corePackages)
    {
        String name = ownPackage(type);
        return name.startsWith("io.chiplet.") && !corePackages.contains(name);
    }

    /** Where an adapter turns its engine's settings into core's types: a {@code *Settings} or {@code *Config} class, or a {@code .settings} package. */
    private static boolean isSettingsTranslation(JavaClass topLevel)
    {
        return topLevel.getSimpleName().endsWith("Settings") || topLevel.getSimpleName().endsWith("Config") || ownPackage(topLevel).endsWith(".settings");
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

    // each module's main classes, found from the build's modules: a module with main sources and no classes folder was
    // not built before this one, so its classes would escape the rules
    private static Set<Location> mainClassLocations(Path root)
    {
        Set<Location> locations = new LinkedHashSet<>();
        for (String module : PackageInfos.modules(root)) {
            Path classes = root.resolve(module).resolve("target/classes");
            if (!Files.isDirectory(classes)) {
                throw new IllegalStateException("module " + module + " has main sources but no " + classes + ": make it a (test) dependency of the jmh module "
                        + "so the build compiles it before these rules run");
            }
            locations.add(Location.of(classes));
        }
        return locations;
    }
}
