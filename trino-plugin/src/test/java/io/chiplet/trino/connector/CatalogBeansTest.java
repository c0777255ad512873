package io.chiplet.trino.connector;

import io.chiplet.trino.measure.QueryMeasurements;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class CatalogBeansTest
{
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void theCatalogsFiguresAreBeansNamedAsTrinosOwnAndGoAtClose()
            throws Exception
    {
        FailedCatalog state = new FailedCatalog("chiplet_beans", "node-1", "no sysfs here");
        QueryMeasurements measurements = new QueryMeasurements(Clock.systemUTC(), NOPLogger.NOP_LOGGER);
        ObjectName placement = new ObjectName("io.chiplet.trino:type=Placement,name=chiplet_beans");
        ObjectName measurement = new ObjectName("io.chiplet.trino:type=Measurement,name=chiplet_beans");
        try (CatalogBeans beans = CatalogBeans.register("chiplet_beans", state, Optional.of(measurements))) {
            assertThat(beans.names()).containsExactly(placement, measurement);
            assertThat(server.getAttribute(placement, "Placing")).isEqualTo(false);
            assertThat(server.getAttribute(placement, "Problem")).isEqualTo("no sysfs here");
            assertThat(server.getAttribute(placement, "Threads")).isEqualTo(0L);
            assertThat(server.getAttribute(placement, "ThreadsPerChiplet")).isEqualTo("");
            assertThat(server.getAttribute(placement, "Policy")).isEqualTo("");
            // Not measuring: no figure, and it says so.
            assertThat((Double) server.getAttribute(measurement, "SpeedUp")).isNaN();
            assertThat(server.getAttribute(measurement, "Verdict")).isEqualTo("not measuring");
            assertThat(server.getAttribute(measurement, "Placing")).isEqualTo(true);

            // A second server in this JVM (tests): the first keeps the name, nothing fails.
            try (CatalogBeans second = CatalogBeans.register("chiplet_beans", new FailedCatalog("chiplet_beans", "node-2", "other"), Optional.empty())) {
                assertThat(second.names()).isEmpty();
                assertThat(server.getAttribute(placement, "Problem")).isEqualTo("no sysfs here");
            }
            assertThat(server.isRegistered(placement)).isTrue();
        }
        assertThat(server.isRegistered(placement)).isFalse();
        assertThat(server.isRegistered(measurement)).isFalse();
    }

    @Test
    void anOddCatalogNameIsQuoted()
    {
        assertThat(CatalogBeans.name("Placement", "chiplet").toString()).isEqualTo("io.chiplet.trino:type=Placement,name=chiplet");
        assertThat(CatalogBeans.name("Placement", "a,b").getKeyProperty("name")).isEqualTo("\"a,b\"");
    }
}
