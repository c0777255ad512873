package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.chiplet.cli.AvailabilityListing.EventStatus;
import io.chiplet.cli.CounterSampler.Interval;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;

/** {@code chiplet counters --format json}: the same report as {@link CountersText}, as one JSON document. */
final class CountersJson
{
    private CountersJson() {}

    static void write(PrintWriter out, CountersReport report)
            throws IOException
    {
        // the writer belongs to picocli: the generator must not close it
        JsonFactory factory = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("target", report.target().toString());
            // on a snapshot "available" means the settings allow it; only the live kernel is probed
            json.writeBooleanField("probed", report.probed());
            json.writeObjectFieldStart("platform");
            if (report.platform().paranoid().isPresent()) {
                json.writeNumberField("perfEventParanoid", report.platform().paranoid().getAsInt());
            }
            else {
                json.writeNullField("perfEventParanoid");
            }
            json.writeBooleanField("perfmonCapable", report.platform().perfmonCapable());
            json.writeObjectFieldStart("pmus");
            for (Map.Entry<String, Integer> pmu : new TreeMap<>(report.platform().pmus()).entrySet()) {
                json.writeNumberField(pmu.getKey(), pmu.getValue());
            }
            json.writeEndObject();
            if (report.catalog().cpu().isPresent()) {
                json.writeObjectFieldStart("cpu");
                json.writeStringField("vendor", report.catalog().cpu().get().vendor());
                json.writeNumberField("family", report.catalog().cpu().get().family());
                json.writeNumberField("model", report.catalog().cpu().get().model());
                json.writeStringField("modelName", report.catalog().cpu().get().modelName());
                json.writeEndObject();
            }
            if (report.catalog().microarchitecture().isPresent()) {
                json.writeStringField("microarchitecture", report.catalog().microarchitecture().get().displayName());
            }
            json.writeEndObject();

            json.writeArrayFieldStart("events");
            for (EventStatus status : report.statuses()) {
                json.writeStartObject();
                json.writeStringField("name", status.event().name());
                json.writeStringField("group", status.group());
                json.writeNumberField("type", status.event().type());
                json.writeStringField("config", "0x" + Long.toHexString(status.event().config()));
                if (status.event().config1() != 0) {
                    json.writeStringField("config1", "0x" + Long.toHexString(status.event().config1()));
                }
                json.writeBooleanField("available", status.availability().isAvailable());
                if (status.availability().unavailableReason().isPresent()) {
                    json.writeStringField("reason", status.availability().unavailableReason().get());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            if (report.catalog().fillSourcesUnknownReason().isPresent()) {
                json.writeStringField("fillSourceEventsUnknown", report.catalog().fillSourcesUnknownReason().get());
            }

            json.writeObjectFieldStart("remoteAccessSignal");
            json.writeBooleanField("hardwareAvailable", report.signalHardware().isAvailable());
            if (report.signalHardware().unavailableReason().isPresent()) {
                json.writeStringField("hardwareReason", report.signalHardware().unavailableReason().get());
            }
            if (report.signalDescription().isPresent()) {
                json.writeStringField("inUse", report.signalDescription().get());
            }
            json.writeEndObject();
            if (report.liveProblem().isPresent()) {
                json.writeStringField("live", report.liveProblem().get());
            }

            json.writeArrayFieldStart("intervals");
            for (Interval interval : report.intervals()) {
                json.writeStartObject();
                json.writeNumberField("intervalNanos", interval.intervalNanos());
                json.writeObjectFieldStart("counts");
                for (Map.Entry<String, Long> entry : interval.counts().entrySet()) {
                    json.writeNumberField(entry.getKey(), entry.getValue());
                }
                json.writeEndObject();
                json.writeObjectFieldStart("signal");
                json.writeStringField("source", interval.signal().source().name());
                json.writeNumberField("events", interval.signal().remoteEvents());
                json.writeNumberField("perSecond", interval.signal().perSecond());
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        out.println();
    }
}
