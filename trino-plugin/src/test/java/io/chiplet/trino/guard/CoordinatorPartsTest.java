package io.chiplet.trino.guard;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

class CoordinatorPartsTest
{
    @Test
    void everyPartIsListedAndAFailOpenSwitchShowsItsCause()
    {
        CoordinatorParts parts = new CoordinatorParts();
        assertThat(parts.current()).extracting(CoordinatorParts.PartState::state).containsOnly(CoordinatorParts.NOT_CONFIGURED);

        parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.ACTIVE, "measures");
        FailOpenSwitch failOpen = new FailOpenSwitch(LoggerFactory.getLogger(CoordinatorPartsTest.class), "Chiplet skew listener", "no skew is recorded",
                cause -> parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.OFF, cause));
        failOpen.disable("java.lang.NoSuchMethodError: getTaskStatistics");
        failOpen.disable("a second failure");

        assertThat(parts.current()).containsExactly(
                new CoordinatorParts.PartState("session-property-manager", "not configured", "etc/session-property-config.properties does not name the chiplet manager"),
                new CoordinatorParts.PartState("event-listener", "off", "no skew is recorded: java.lang.NoSuchMethodError: getTaskStatistics"),
                new CoordinatorParts.PartState("worker-reports", "not configured", "no chiplet catalog on the coordinator collects them"),
                new CoordinatorParts.PartState("measurement", "not configured", "etc/event-listener.properties does not name the chiplet listener"));
    }
}
