package io.chiplet.trino.session;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionManagerSettingsTest
{
    @Test
    void defaults()
    {
        SessionManagerSettings settings = SessionManagerSettings.parse(Map.of());

        assertThat(settings.topology().fsRoot()).isEmpty();
        assertThat(settings.topology().hwlocXml()).isEmpty();
        assertThat(settings.topology().virtualChipletCores()).isZero();
        assertThat(settings.workersPerHost()).isEqualTo(1);
        assertThat(settings.workers()).isEmpty();
        assertThat(settings.defaults()).isEqualTo(SessionDefaultsPolicy.PROPERTIES);
        assertThat(settings.skewWindowQueries()).isEqualTo(4);
        assertThat(SessionManagerSettings.rulesFile(Map.of())).isEmpty();
    }

    @Test
    void everySetting()
    {
        SessionManagerSettings settings = SessionManagerSettings.parse(Map.of(
                "session-property-manager.config-file", "etc/rules.json",
                "chiplet.fs-root", "/snapshots/epyc",
                "chiplet.virtual-chiplet-cores", "4",
                "chiplet.workers-per-host", "2",
                "chiplet.workers", "12",
                "chiplet.session-defaults", " task_concurrency , max_hash_partition_count",
                "chiplet.skew-feedback.window-queries", "0"));

        assertThat(settings.topology().fsRoot()).hasValue(Path.of("/snapshots/epyc"));
        assertThat(settings.topology().virtualChipletCores()).isEqualTo(4);
        assertThat(settings.workersPerHost()).isEqualTo(2);
        assertThat(settings.workers()).isEqualTo(OptionalInt.of(12));
        assertThat(settings.defaults()).isEqualTo(Set.of("task_concurrency", "max_hash_partition_count"));
        assertThat(settings.skewWindowQueries()).isZero();
        assertThat(SessionManagerSettings.rulesFile(Map.of("session-property-manager.config-file", "etc/rules.json"))).isEqualTo(Optional.of(Path.of("etc/rules.json")));
        assertThat(SessionManagerSettings.parse(Map.of("chiplet.session-defaults", "")).defaults()).isEmpty();
    }

    @Test
    void badSettingsAreNamedWithWhatWasExpected()
    {
        assertThatThrownBy(() -> SessionManagerSettings.parse(Map.of("chiplet.workers", "0")))
                .hasMessage("chiplet.workers = '0' is not usable: expected a whole number of nodes that run tasks, at least 1");
        assertThatThrownBy(() -> SessionManagerSettings.parse(Map.of("chiplet.workers-per-host", "two")))
                .hasMessage("chiplet.workers-per-host = 'two' is not usable: expected a whole number of worker JVMs per host, at least 1");
        assertThatThrownBy(() -> SessionManagerSettings.parse(Map.of("chiplet.session-defaults", "task_concurrency,hash_partition_count")))
                .hasMessageStartingWith("chiplet.session-defaults = 'task_concurrency,hash_partition_count' is not usable: expected a comma-separated list of");
        assertThatThrownBy(() -> SessionManagerSettings.parse(Map.of("chiplet.fs-root", "/a", "chiplet.hwloc-xml", "/b")))
                .hasMessage("chiplet.fs-root and chiplet.hwloc-xml are exclusive: give at most one");
        assertThatThrownBy(() -> SessionManagerSettings.parse(Map.of("chiplet.fsroot", "/a")))
                .hasMessageStartingWith("chiplet.fsroot is not a setting of the chiplet session property manager: expected one of chiplet.fs-root, ");
    }
}
