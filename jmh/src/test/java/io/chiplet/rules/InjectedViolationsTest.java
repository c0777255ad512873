package io.chiplet.rules;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.chiplet.spark.placement.InjectedViolation;
import io.chiplet.spark.unlisted.UnlistedPackage;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static io.chiplet.rules.PackageRulesAcrossModulesTest.packagesMissingFromTable;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.packagesOf;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.planningInternalUses;
import static io.chiplet.rules.PackageRulesAcrossModulesTest.tableViolations;
import static org.assertj.core.api.Assertions.assertThat;

/** Each cross-module rule fails on a violation injected into it: the rules can fail. */
class InjectedViolationsTest
{
    private final JavaClasses injected = new ClassFileImporter().importClasses(InjectedViolation.class, UnlistedPackage.class);

    @Test
    void aPluginPackageUsingAPackageTheTableDoesNotAllowFails()
    {
        assertThat(tableViolations(injected, PackageTable.MAY_DEPEND_ON))
                .anyMatch(line -> line.startsWith("io.chiplet.spark.placement may not depend on io.chiplet.spark.driver:"))
                .anyMatch(line -> line.startsWith("io.chiplet.spark.placement may not depend on io.chiplet.trino.guard:"))
                .noneMatch(line -> line.contains("may not depend on io.chiplet.placement:"));
    }

    @Test
    void aPluginUsingAPlanningInternalFails()
    {
        assertThat(planningInternalUses(injected))
                .containsExactly("io.chiplet.spark.placement.InjectedViolation -> io.chiplet.placement.Assignment");
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
