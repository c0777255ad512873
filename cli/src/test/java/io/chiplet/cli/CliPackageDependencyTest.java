package io.chiplet.cli;

import io.chiplet.PackageRulesTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cli module's package rules: its one package, {@code io.chiplet.cli}, is an entry point and may use every package
 * of core; nothing of the CLI lives in another package (core and the plugins' jars must not need it).
 */
class CliPackageDependencyTest
        extends PackageRulesTest
{
    CliPackageDependencyTest()
    {
        super(ChipletCli.class, "io.chiplet", Map.of(), Set.of("cli"));
    }

    @Test
    void everyClassOfTheModuleIsInTheCliPackage()
    {
        assertThat(violations(classes().should().resideInAPackage("io.chiplet.cli"))).isEmpty();
    }
}
