package io.chiplet.trino.event;

import io.chiplet.placement.SkewRule;
import io.chiplet.trino.LogCapture;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.trino.spi.eventlistener.EventListenerFactory;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChipletEventListenerFactoryTest
{
    private static final EventListenerFactory.EventListenerContext CONTEXT = new EventListenerFactory.EventListenerContext()
    {
        @Override
        public String getVersion()
        {
            return "483";
        }

        @Override
        public OpenTelemetry getOpenTelemetry()
        {
            return OpenTelemetry.noop();
        }

        @Override
        public Tracer getTracer()
        {
            return OpenTelemetry.noop().getTracer("test");
        }
    };

    @Test
    void settingsAndTheirDefaults()
    {
        assertThat(SkewListenerSettings.parse(Map.of())).isEqualTo(SkewRule.Thresholds.DEFAULT);
        assertThat(SkewListenerSettings.parse(Map.of(
                "chiplet.skew.max-over-median", "3.5",
                "chiplet.skew.min-stage-rows", "0",
                "chiplet.skew.consolidate-below-bytes", "0")))
                .isEqualTo(new SkewRule.Thresholds(3.5, 0, 0));
        assertThatThrownBy(() -> SkewListenerSettings.parse(Map.of("chiplet.skew.max-over-median", "1")))
                .hasMessage("chiplet.skew.max-over-median = '1' is not usable: expected a ratio above 1, such as 2.0");
        assertThatThrownBy(() -> SkewListenerSettings.parse(Map.of("chiplet.skew.min-stage-rows", "-1")))
                .hasMessage("chiplet.skew.min-stage-rows = '-1' is not usable: expected a whole number of rows, 0 or more");
        assertThatThrownBy(() -> SkewListenerSettings.parse(Map.of("chiplet.skew.threshold", "2")))
                .hasMessageStartingWith("chiplet.skew.threshold is not a setting of the chiplet event listener");
    }

    @Test
    void badSettingGivesOneWarningAndAListenerThatRecordsNothing()
    {
        try (LogCapture recorded = LogCapture.of(SkewEventListener.class)) {
            assertThat(skewOf(factory().create(Map.of("chiplet.skew.max-over-median", "lots"), CONTEXT)))
                    .isNotInstanceOf(SkewEventListener.class);
            assertThat(skewOf(factory().create(Map.of(), CONTEXT)))
                    .isInstanceOf(SkewEventListener.class);

            assertThat(recorded.warnings()).singleElement().asString()
                    .isEqualTo("Chiplet skew listener off, no skew is recorded: chiplet.skew.max-over-median = 'lots' is not usable: expected a ratio above 1, such as 2.0");
        }
    }

    @Test
    void theMeasurementIsACoordinatorPartThatShowsWhenItsListenerFailed()
    {
        io.chiplet.trino.guard.CoordinatorParts parts = new io.chiplet.trino.guard.CoordinatorParts();
        ChipletEventListenerFactory factory = new ChipletEventListenerFactory(new SkewHistory(4), new SkewEvidenceLog(4), parts,
                new io.chiplet.trino.measure.QueryMeasurements(java.time.Clock.systemUTC(), org.slf4j.LoggerFactory.getLogger("test")));
        assertThat(parts.current()).filteredOn(part -> part.part().equals("measurement")).singleElement()
                .extracting(io.chiplet.trino.guard.CoordinatorParts.PartState::state).isEqualTo("not configured");
        var listener = (ChipletEventListenerFactory.ChipletEventListener) factory.create(Map.of(), CONTEXT);
        assertThat(parts.current()).filteredOn(part -> part.part().equals("measurement")).singleElement()
                .extracting(io.chiplet.trino.guard.CoordinatorParts.PartState::state).isEqualTo("active");
        try (LogCapture recorded = LogCapture.of(MeasureEventListener.class)) {
            // An event it cannot read (a bug of ours, or an SPI it cannot link): the part goes off and says why.
            listener.measure().queryCompleted(null);
        }
        assertThat(parts.current()).filteredOn(part -> part.part().equals("measurement")).singleElement()
                .satisfies(part -> assertThat(part.state()).isEqualTo("off"))
                .satisfies(part -> assertThat(part.detail()).startsWith("placement is not measured").contains("NullPointerException"));
    }

    private static ChipletEventListenerFactory factory()
    {
        return new ChipletEventListenerFactory(new SkewHistory(4), new SkewEvidenceLog(4), new io.chiplet.trino.guard.CoordinatorParts(),
                new io.chiplet.trino.measure.QueryMeasurements(java.time.Clock.systemUTC(), org.slf4j.LoggerFactory.getLogger("test")));
    }

    private static io.trino.spi.eventlistener.EventListener skewOf(io.trino.spi.eventlistener.EventListener listener)
    {
        return ((ChipletEventListenerFactory.ChipletEventListener) listener).skew();
    }
}
