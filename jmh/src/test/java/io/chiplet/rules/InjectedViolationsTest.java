package io.chiplet.rules;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.chiplet.flink.placement.InjectedPolicyDecision;
import io.chiplet.flink.settings.FlinkSettings;
import io.chiplet.measure.InjectedCalls;
import io.chiplet.measure.InjectedCircle;
import io.chiplet.measure.InjectedCycleFigure;
import io.chiplet.measure.InjectedCycleReport;
import io.chiplet.measure.InjectedJnaCalls;
import io.chiplet.measure.InjectedShape;
import io.chiplet.measure.InjectedSquare;
import io.chiplet.spark.placement.InjectedViolation;
import io.chiplet.spark.unlisted.UnlistedPackage;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static io.chiplet.rules.PackageRulesAcrossModulesTest.classCyclesWithinPackages;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.coreApiViolations;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.packagesMissingFromTable;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.packagesOf;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.policyConstantUses;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.tableViolations;
import static org.assertj.core.api.Assertions.assertThat;

/** Each cross-module rule fails on a violation injected into it: the rules can fail. */
class InjectedViolationsTest
{
    private final JavaClasses injected = new ClassFileImporter().importClasses(InjectedViolation.class, UnlistedPackage.class);
    // an adapter no rule names: its classes and the synthetic switch map of its switch over Policy
    private final JavaClasses newAdapter = new ClassFileImporter().importPackagesOf(InjectedPolicyDecision.class, FlinkSettings.class);
    private final Set<String> corePackages = PackageInfos.packagesOf(PackageInfos.buildRoot(), "core");

    @Test
    void aPluginPackageUsingAPackageTheTableDoesNotAllowFails()
    {
        assertThat(tableViolations(injected, PackageTable.MAY_DEPEND_ON))
                .anyMatch(line -> line.startsWith("io.chiplet.spark.placement may not depend on io.chiplet.spark.driver:"))
                .anyMatch(line -> line.startsWith("io.chiplet.spark.placement may not depend on io.chiplet.trino.guard:"))
                .noneMatch(line -> line.contains("may not depend on io.chiplet.placement:"));
    }

    @Test
    void anAdapterUsingCoreOutsideItsApiFails()
    {
        assertThat(coreApiViolations(injected, corePackages, CoreApi.FOR_ADAPTERS))
                .containsExactly("io.chiplet.spark.placement.InjectedViolation -> io.chiplet.placement.Assignment");
        // a module no rule names is an adapter too, and the allow-list closes what it does not open
        assertThat(coreApiViolations(newAdapter, corePackages, CoreApi.FOR_ADAPTERS))
                .containsExactly("io.chiplet.flink.placement.InjectedPolicyDecision -> io.chiplet.placement.Assignment");
        assertThat(coreApiViolations(newAdapter, corePackages, Map.of("io.chiplet.placement", Set.of("Policy", "Assignment")))).isEmpty();
        assertThat(coreApiViolations(newAdapter, corePackages, Map.of("io.chiplet.topology", Set.of(CoreApi.WHOLE_PACKAGE))))
                .containsExactly("io.chiplet.flink.placement.InjectedPolicyDecision -> io.chiplet.placement.Assignment",
                        "io.chiplet.flink.placement.InjectedPolicyDecision -> io.chiplet.placement.Policy",
                        "io.chiplet.flink.settings.FlinkSettings -> io.chiplet.placement.Policy");
    }

    @Test
    void anAdapterNamingAPolicyConstantOutsideItsSettingsFails()
    {
        // == ADAPTIVE, and a switch over WIC and WIM: all three, on the adapter's class; FlinkSettings' default AUTO is allowed
        assertThat(policyConstantUses(newAdapter, corePackages)).containsExactly(
                "io.chiplet.flink.placement.InjectedPolicyDecision -> Policy.ADAPTIVE",
                "io.chiplet.flink.placement.InjectedPolicyDecision -> Policy.WIC",
                "io.chiplet.flink.placement.InjectedPolicyDecision -> Policy.WIM");
        // the same classes counted as core's are no adapter's
        assertThat(policyConstantUses(newAdapter, Set.of("io.chiplet.flink.placement", "io.chiplet.flink.settings"))).isEmpty();
    }

    @Test
    void aClassCycleWithinAPackageFails()
    {
        JavaClasses measure = new ClassFileImporter().importClasses(InjectedCycleReport.class, InjectedCycleFigure.class, InjectedCalls.class,
                InjectedJnaCalls.class, InjectedShape.class, InjectedCircle.class, InjectedSquare.class);
        // the report and its figure call each other; an interface's factory naming its implementation, and a sealed
        // interface's permitted records, are the one allowed shape
        assertThat(classCyclesWithinPackages(measure, Set.of("io.chiplet.measure")))
                .containsExactly("io.chiplet.measure: InjectedCycleFigure, InjectedCycleReport");
        // outside the packages given, no rule
        assertThat(classCyclesWithinPackages(measure, Set.of("io.chiplet.placement"))).isEmpty();
    }

    @Test
    void aPackageNotInTheTableFails()
    {
        assertThat(packagesMissingFromTable(packagesOf(injected), PackageTable.MAY_DEPEND_ON))
                .containsExactly("io.chiplet.spark.unlisted");
    }

    @Test
    void aPackageInfoThatDriftedFromTheTableFails()
    {
        String drifted = """
                /**
                 * Where an executor's tasks run.
                 *
                 * <p>Allowed dependencies: {@code io.chiplet.spark.settings}, {@code io.chiplet.spark.driver}.
                 */
                package io.chiplet.spark.placement;
                """;
        Map<String, Set<String>> stated = new HashMap<>(PackageTable.MAY_DEPEND_ON);
        stated.put("io.chiplet.spark.placement", PackageInfos.statedRule(drifted).orElseThrow());
        assertThat(stated.get("io.chiplet.spark.placement")).containsExactlyInAnyOrder("io.chiplet.spark.settings", "io.chiplet.spark.driver");
        assertThat(stated).isNotEqualTo(PackageTable.MAY_DEPEND_ON);
        assertThat(PackageInfos.statedRule("/** No rule line. */ package io.chiplet.x;")).isEmpty();
    }
}
