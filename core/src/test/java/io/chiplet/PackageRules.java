package io.chiplet;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static java.util.Objects.requireNonNull;

/**
 * The package rules every module's {@code PackageDependencyTest} checks (ArchUnit), over one module's compiled main
 * classes (the folder or jar a class of it was loaded from), not its tests': no package cycles, and each package
 * depending only on the module's packages its package-info allows. Shared with the other modules in core's test
 * jar.
 */
public final class PackageRules
{
    private final JavaClasses classes;
    private final String root;

    private PackageRules(JavaClasses classes, String root)
    {
        this.classes = requireNonNull(classes, "classes is null");
        this.root = requireNonNull(root, "root is null");
    }

    /**
     * @param mainClass any main class of the module
     * @param root the package the module's packages are below ({@code io.chiplet} for core, {@code io.chiplet.spark})
     */
    public static PackageRules of(Class<?> mainClass, String root)
    {
        try {
            Path location = Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new PackageRules(new ClassFileImporter().importPath(location), root);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public JavaClasses classes()
    {
        return classes;
    }

    /** The module's packages, relative to the root ("" for the root package itself). */
    public Set<String> packages()
    {
        Set<String> packages = new TreeSet<>();
        classes.forEach(type -> packages.add(type.getPackageName().equals(root) ? "" : type.getPackageName().substring(root.length() + 1)));
        return packages;
    }

    /** Each package is a slice of its own (the root package too), so any cycle between two packages is one. */
    public List<String> cycles()
    {
        return violations(slices().matching("io.chiplet.(**)").should().beFreeOfCycles());
    }

    /**
     * Dependencies of a named package on a package of the module (below the root, or the root itself) it does not
     * list; a package that is not named is not checked.
     */
    public List<String> dependenciesNotAllowed(Map<String, List<String>> mayDependOn)
    {
        List<String> violations = new ArrayList<>();
        mayDependOn.forEach((name, allowed) -> {
            String[] own = Stream.concat(Stream.of(name), allowed.stream()).map(this::absolute).toArray(String[]::new);
            violations.addAll(violations(noClasses().that().resideInAPackage(absolute(name))
                    .should().dependOnClassesThat(resideInAPackage(root + "..").and(not(resideInAnyPackage(own))))));
        });
        return violations;
    }

    public List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(classes);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }

    private String absolute(String name)
    {
        return name.isEmpty() ? root : root + "." + name;
    }
}
