package io.chiplet.advice;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.placement.Plan;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.placement.WorkerPlacements;

import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/** Plans and advice as text for people and JSON for tools. */
public final class PlanFormatter
{
    private static final JsonFactory JSON = new JsonFactory();

    private PlanFormatter() {}

    /**
     * What each worker binds, as {@code chiplet exec} and the plugins bind it: {@code {"policy": "wicp-local",
     * "requested": "auto", "reason": "...", "bindsMemory": true, "workers": [{"worker": 0, "chiplet": 3,
     * "cpus": "24-31", "memoryNode": 0}, ...]}}. {@code chiplet} is left out where a worker spans chiplets, {@code cpus}
     * where it is not bound ({@code wim}), {@code memoryNode} where its memory is not bound.
     */
    public static String json(WorkerPlacements targets)
    {
        requireNonNull(targets, "targets is null");
        Plan plan = targets.plan();
        return jsonDocument(json -> {
            json.writeStringField("policy", plan.policy().cliName());
            json.writeStringField("requested", plan.requested().cliName());
            json.writeStringField("reason", plan.reason());
            json.writeBooleanField("bindsMemory", targets.bindsMemory());
            json.writeArrayFieldStart("workers");
            for (WorkerPlacement target : targets.targets()) {
                json.writeStartObject();
                json.writeNumberField("worker", target.worker());
                if (target.chiplet().isPresent()) {
                    json.writeNumberField("chiplet", target.chiplet().getAsInt());
                }
                if (target.cpusToBind().isPresent()) {
                    json.writeStringField("cpus", target.cpusToBind().get().toList());
                }
                if (target.memoryNodeToBind().isPresent()) {
                    json.writeNumberField("memoryNode", target.memoryNodeToBind().getAsInt());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        });
    }

    /** What each worker binds, one line each; {@code -} where nothing is bound (the CPUs under {@code wim}, memory when not bound). */
    public static String text(WorkerPlacements targets)
    {
        requireNonNull(targets, "targets is null");
        Plan plan = targets.plan();
        StringBuilder out = new StringBuilder();
        out.append("policy: ").append(plan.policy().cliName());
        if (plan.requested() != plan.policy()) {
            out.append(" (requested ").append(plan.requested().cliName()).append(')');
        }
        out.append(System.lineSeparator()).append("reason: ").append(plan.reason()).append(System.lineSeparator());
        out.append("memory: ").append(targets.memoryDescription()).append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "%-7s %-8s %-5s %s%n", "worker", "chiplet", "node", "cpus"));
        for (WorkerPlacement target : targets.targets()) {
            String chiplet = target.chiplet().isPresent() ? Integer.toString(target.chiplet().getAsInt()) : "-";
            String node = target.memoryNodeToBind().isPresent() ? Integer.toString(target.memoryNodeToBind().getAsInt()) : "-";
            String cpus = target.cpusToBind().map(CpuSet::toList).orElse("- (not bound)");
            out.append(String.format(Locale.ROOT, "%-7d %-8s %-5s %s%n", target.worker(), chiplet, node, cpus));
        }
        return out.toString();
    }

    public static String text(List<AdvisedSetting> settings)
    {
        StringBuilder out = new StringBuilder();
        for (AdvisedSetting setting : settings) {
            out.append(setting.key()).append('=').append(setting.value()).append(System.lineSeparator());
            out.append("    # ").append(setting.reason()).append(System.lineSeparator());
        }
        return out.toString();
    }

    public static String json(List<AdvisedSetting> settings)
    {
        return jsonDocument(json -> writeSettings(json, settings));
    }

    /** Writes the fields of one JSON object onto a generator. */
    @FunctionalInterface
    public interface JsonFields
    {
        void write(JsonGenerator json)
                throws IOException;
    }

    /**
     * One pretty-printed JSON object holding what {@code fields} writes, ending with a line separator: the frame of every
     * document {@code chiplet plan} and {@code chiplet advise} print.
     */
    public static String jsonDocument(JsonFields fields)
    {
        requireNonNull(fields, "fields is null");
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            fields.write(json);
            json.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out + System.lineSeparator();
    }

    /** The {@code "settings": [{key, value, reason}, ...]} field, as every advice document writes it. */
    public static void writeSettings(JsonGenerator json, List<AdvisedSetting> settings)
            throws IOException
    {
        json.writeArrayFieldStart("settings");
        for (AdvisedSetting setting : settings) {
            json.writeStartObject();
            json.writeStringField("key", setting.key());
            json.writeStringField("value", setting.value());
            json.writeStringField("reason", setting.reason());
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
