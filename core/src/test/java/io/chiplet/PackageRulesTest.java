package io.chiplet;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

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
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules every module's {@code PackageDependencyTest} checks (ArchUnit) over the module's compiled main
 * classes (the folder or jar a class of it was loaded from), not its tests': no package cycles, each package its own
 * slice (the root package too), and each package depending only on the module's packages its package-info allows.
 * Shared with the other modules in core's test jar.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PackageRulesTest
{
    private final JavaClasses classes;
    private final String root;
    private final Map<String, List<String>> mayDependOn;
    private final Set<String> unruled;

    /**
     * @param mainClass any main class of the module
     * @param root the package the module's packages are below ({@code io.chiplet} for core, {@code io.chiplet.spark})
     * @param mayDependOn for each package (relative to the root, "" the root itself) the module's other packages it
     *         may depend on
     * @param unruled the packages that may depend on every other one (entry points, the CLI): they must exist too
     */
    protected PackageRulesTest(Class<?> mainClass, String root, Map<String, List<String>> mayDependOn, Set<String> unruled)
    {
        this.root = requireNonNull(root, "root is null");
        this.mayDependOn = Map.copyOf(mayDependOn);
        this.unruled = Set.copyOf(unruled);
        try {
            Path location = Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
            this.classes = new ClassFileImporter().importPath(location);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void noPackageCycles()
    {
        assertThat(violations(slices().matching("io.chiplet.(**)").should().beFreeOfCycles())).isEmpty();
    }

    @Test
    void eachPackageDependsOnlyOnThePackagesItMay()
    {
        List<String> violations = new ArrayList<>();
        mayDependOn.forEach((name, allowed) -> {
            String[] own = Stream.concat(Stream.of(name), allowed.stream()).map(this::absolute).toArray(String[]::new);
            violations.addAll(violations(noClasses().that().resideInAPackage(absolute(name))
                    .should().dependOnClassesThat(resideInAPackage(root + "..").and(not(resideInAnyPackage(own))))));
        });
        assertThat(violations).isEmpty();
    }

    @Test
    void theRulesSeeEveryPackage()
    {
        // a rule over a package that is not there passes silently, and so would all of them over a wrong class path
        Set<String> packages = new TreeSet<>();
        classes.forEach(type -> packages.add(type.getPackageName().equals(root) ? "" : type.getPackageName().substring(root.length() + 1)));
        assertThat(packages).containsAll(mayDependOn.keySet()).containsAll(unruled);
    }

    protected final List<String> violations(ArchRule rule)
    {
        EvaluationResult result = rule.evaluate(classes);
        return result.hasViolation() ? result.getFailureReport().getDetails() : List.of();
    }

    private String absolute(String name)
    {
        return name.isEmpty() ? root : root + "." + name;
    }
}
