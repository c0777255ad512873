package io.chiplet.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chiplet.measure.PooledRuns;
import io.chiplet.measure.RunRecord;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The page {@code chiplet report} writes from event logs: per application name (recurring applications pooled), the
 * pooled speed-up over its runs beside each run's interval, then each run: the executors' chiplets, tasks per chiplet,
 * the settings chosen and why, the measurement over time, the guard's actions and the plugin's own cost. Every term
 * links to the docs under {@code docsBase}. Plain HTML and inline SVG, no script.
 */
public final class RunsPage
{
    static final String KIND = "chiplet-eventlog-report/1";
    private static final double CONFIDENCE = 0.95;

    private final List<RunFacts> runs;
    private final String docsBase;

    public RunsPage(List<RunFacts> runs, String docsBase)
    {
        this.runs = List.copyOf(requireNonNull(runs, "runs is null"));
        this.docsBase = requireNonNull(docsBase, "docsBase is null");
    }

    /** Runs by application name, in the order first seen. */
    public Map<String, List<RunFacts>> byApplication()
    {
        Map<String, List<RunFacts>> byName = new LinkedHashMap<>();
        runs.forEach(run -> byName.computeIfAbsent(run.name(), name -> new ArrayList<>()).add(run));
        return byName;
    }

    /**
     * The runs of one application with a figure, pooled by core's {@link PooledRuns} (the same pooling as the plugin's
     * run history): each run's last report gives its log time ratio, standard error, degrees of freedom and clusters.
     */
    public static Optional<PooledRuns> pooled(List<RunFacts> runs)
    {
        List<RunRecord> records = new ArrayList<>();
        for (RunFacts run : runs) {
            run.lastReport().ifPresent(report -> {
                if (report.get("estimate") instanceof Map<?, ?> estimate && estimate.get("speedUp") instanceof Number speedUp
                        && estimate.get("logStandardError") instanceof Number error && error.doubleValue() > 0
                        && estimate.get("degreesOfFreedom") instanceof Number freedom && freedom.doubleValue() >= 1
                        && estimate.get("placedClusters") instanceof Number placed && estimate.get("controlClusters") instanceof Number control
                        && placed.intValue() >= 2 && control.intValue() >= 2) {
                    records.add(new RunRecord(run.name(), run.id(), Instant.ofEpochMilli(run.started().orElse(0)), 0, -Math.log(speedUp.doubleValue()),
                            error.doubleValue(), freedom.doubleValue(), placed.intValue(), control.intValue()));
                }
            });
        }
        return records.isEmpty() || runs.isEmpty() ? Optional.empty() : Optional.of(new PooledRuns(runs.get(0).name(), records));
    }

    public String json()
    {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            json.writeStringField("kind", KIND);
            json.writeArrayFieldStart("applications");
            for (Map.Entry<String, List<RunFacts>> application : byApplication().entrySet()) {
                json.writeStartObject();
                json.writeStringField("name", application.getKey());
                Optional<PooledRuns> pooled = pooled(application.getValue());
                if (pooled.isPresent()) {
                    json.writeObjectFieldStart("pooled");
                    double[] speedUp = pooled.get().speedUp();
                    json.writeNumberField("runs", pooled.get().runs().size());
                    json.writeNumberField("speedUp", speedUp[1]);
                    json.writeNumberField("speedUpLow", speedUp[0]);
                    json.writeNumberField("speedUpHigh", speedUp[2]);
                    json.writeNumberField("degreesOfFreedom", pooled.get().degreesOfFreedom());
                    json.writeNumberField("confidence", CONFIDENCE);
                    json.writeBooleanField("heterogeneous", pooled.get().heterogeneous());
                    json.writeEndObject();
                }
                json.writeArrayFieldStart("runs");
                for (RunFacts run : application.getValue()) {
                    writeRun(json, run);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out + "\n";
    }

    private static void writeRun(JsonGenerator json, RunFacts run)
            throws IOException
    {
        json.writeStartObject();
        json.writeStringField("log", run.source());
        json.writeStringField("id", run.id());
        if (run.started().isPresent()) {
            json.writeNumberField("started", run.started().getAsLong());
        }
        if (run.ended().isPresent()) {
            json.writeNumberField("ended", run.ended().getAsLong());
        }
        json.writeBooleanField("plugin", run.hadPlugin());
        json.writeArrayFieldStart("executors");
        for (RunFacts.Executor executor : run.executors()) {
            json.writeStartObject();
            json.writeStringField("id", executor.id());
            json.writeStringField("host", executor.host());
            json.writeStringField("mode", executor.mode());
            json.writeNumberField("chiplets", executor.chiplets());
            json.writeNumberField("cores", executor.cores());
            json.writeNumberField("chipletL3Bytes", executor.chipletL3Bytes());
            json.writeBooleanField("ownChiplets", executor.ownChiplets());
            json.writeStringField("cpus", executor.cpus().toList());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeNumberField("tasks", run.tasks());
        json.writeNumberField("unplacedTasks", run.unplaced());
        json.writeObjectFieldStart("tasksByChiplet");
        for (Map.Entry<String, Long> chiplet : run.tasksByChiplet().entrySet()) {
            json.writeNumberField(chiplet.getKey(), chiplet.getValue());
        }
        json.writeEndObject();
        if (run.settings().isPresent()) {
            json.writeObjectFieldStart("settings");
            json.writeStringField("basis", run.settings().get().basis());
            json.writeArrayFieldStart("chosen");
            for (String setting : run.settings().get().settings()) {
                json.writeString(setting);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        if (!run.measurements().isEmpty()) {
            RunFacts.MeasurePoint last = run.measurements().get(run.measurements().size() - 1);
            json.writeObjectFieldStart("measurement");
            json.writeNumberField("updates", run.measurements().size());
            json.writeBooleanField("placing", last.placing());
            json.writeNumberField("placedTasks", last.placed());
            json.writeNumberField("controlTasks", last.control());
            writeNumber(json, "speedUp", last.speedUp());
            writeNumber(json, "speedUpLow", last.speedUpLow());
            writeNumber(json, "speedUpHigh", last.speedUpHigh());
            json.writeNumberField("pluginCpuNanos", run.pluginCpuNanos());
            json.writeNumberField("jobCpuNanos", run.jobCpuNanos());
            run.lastReport().map(report -> report.get("summary")).ifPresent(summary -> {
                try {
                    json.writeStringField("summary", String.valueOf(summary));
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            json.writeEndObject();
        }
        if (!run.taskPlaces().holdsNothing()) {
            json.writeObjectFieldStart("taskPlaces");
            json.writeNumberField("tasksEnded", run.taskPlaces().tasksEnded());
            json.writeNumberField("maxStages", TaskView.MAX_STAGES);
            json.writeNumberField("stagesLeftOut", run.taskPlaces().stagesLeftOut());
            json.writeArrayFieldStart("stages");
            for (TaskView.StageRow row : run.taskPlaces().stages()) {
                json.writeStartObject();
                json.writeNumberField("stage", row.stageId());
                json.writeStringField("executor", row.executorId());
                json.writeNumberField("chiplet", row.chiplet());
                json.writeStringField("arm", row.arm());
                json.writeNumberField("tasks", row.tasks());
                json.writeNumberField("millis", row.millis());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("maxRecent", TaskView.MAX_RECENT);
            json.writeArrayFieldStart("recent");
            for (TaskView.TaskRow task : run.taskPlaces().recent()) {
                json.writeStartObject();
                json.writeNumberField("stage", task.stageId());
                json.writeNumberField("task", task.taskId());
                json.writeNumberField("partition", task.partition());
                json.writeStringField("executor", task.executorId());
                json.writeNumberField("chiplet", task.chiplet());
                json.writeStringField("cpus", task.cpus());
                json.writeStringField("arm", task.arm());
                json.writeNumberField("millis", task.millis());
                json.writeBooleanField("failed", task.failed());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeArrayFieldStart("guard");
        for (RunFacts.GuardAction action : run.guard()) {
            json.writeStartObject();
            json.writeNumberField("time", action.time());
            json.writeBooleanField("placing", action.placing());
            json.writeStringField("why", action.why());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeNumber(JsonGenerator json, String field, double value)
            throws IOException
    {
        if (Double.isFinite(value)) {
            json.writeNumberField(field, value);
        }
    }

    public String html()
    {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Chiplet report</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}h1,h2,h3{font-weight:600}")
                .append("table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}")
                .append(".note{color:#555}.run{border-top:2px solid #ddd;margin-top:1.5em;padding-top:.5em}code{background:#f4f4f4;padding:0 .2em}")
                .append("</style></head><body>\n");
        page.append("<h1>Chiplet report</h1>\n<p class=\"note\">").append(runs.size()).append(" application run").append(runs.size() == 1 ? "" : "s")
                .append(". What the <a href=\"").append(docs("spark.md")).append("\">chiplet plugin</a> did in each application and what it ")
                .append("<a href=\"").append(docs("measuring.md")).append("\">measured</a>. <a href=\"").append(docs("observability.md"))
                .append("\">How to read this page</a>.</p>\n");
        for (Map.Entry<String, List<RunFacts>> application : byApplication().entrySet()) {
            List<RunFacts> appRuns = application.getValue();
            page.append("<h2>").append(escape(application.getKey())).append("</h2>\n");
            Optional<PooledRuns> pooled = pooled(appRuns);
            if (appRuns.size() > 1) {
                page.append("<p>").append(appRuns.size()).append(" runs of this application. ");
                if (pooled.isPresent()) {
                    PooledRuns figure = pooled.get();
                    double[] speedUp = figure.speedUp();
                    page.append(String.format(Locale.ROOT, "Pooled over the %d runs with a figure: <b>speed-up %.3fx</b> (%.0f%% interval %.3f to %.3f). ", figure.runs().size(),
                            speedUp[1], CONFIDENCE * 100, speedUp[0], speedUp[2]))
                            .append("<span class=\"note\">It assumes the runs share one true <a href=\"").append(docs("measuring.md"))
                            .append("\">speed-up</a>; runs whose intervals disagree below tell otherwise.</span>");
                }
                else {
                    page.append("None has a measured speed-up yet.");
                }
                page.append("</p>\n").append(forest(appRuns, pooled));
            }
            for (RunFacts run : appRuns) {
                run(page, run);
            }
        }
        page.append("</body></html>\n");
        return page.toString();
    }

    private void run(StringBuilder page, RunFacts run)
    {
        page.append("<div class=\"run\"><h3>").append(escape(run.id())).append("</h3><p class=\"note\">From ").append(escape(run.source()));
        if (run.started().isPresent()) {
            page.append(", started ").append(Instant.ofEpochMilli(run.started().getAsLong()));
            if (run.ended().isPresent()) {
                page.append(", ran ").append(Duration.ofMillis(run.ended().getAsLong() - run.started().getAsLong()).toSeconds()).append(" s");
            }
        }
        page.append(".</p>\n");
        if (!run.hadPlugin()) {
            page.append("<p>The chiplet plugin left no events in this log: it was not in the application (<code>spark.plugins</code>), or an older version ran.</p></div>\n");
            return;
        }
        page.append("<h4>Where each executor and task ran</h4>\n");
        hosts(page, run);
        page.append("<table><tr><th>").append(term("executor", "spark.md", "what-each-executor-says-and-the-metrics")).append("</th><th>host</th>")
                .append("<th>").append(term("mode", "spark.md", "executors-modetask-default")).append("</th><th>")
                .append(term("chiplets", "topology.md", "chiplets")).append("</th><th>its chiplets (CPUs)</th><th>cores</th><th>")
                .append(term("L3", "topology.md", "chiplets")).append(" per chiplet</th><th>")
                .append(term("own chiplets", "spark.md", "several-executors-on-one-host-modetask")).append("</th></tr>\n");
        for (RunFacts.Executor executor : run.executors()) {
            page.append("<tr><td>").append(escape(executor.id())).append("</td><td>").append(escape(executor.host())).append("</td><td>").append(escape(executor.mode()))
                    .append("</td><td>").append(executor.chiplets()).append("</td><td>").append(escape(chipletsOf(executor))).append("</td><td>").append(executor.cores()).append("</td><td>")
                    .append(executor.chipletL3Bytes() == 0 ? "unknown" : (executor.chipletL3Bytes() >> 20) + " MiB").append("</td><td>")
                    .append(executor.ownChiplets() ? "yes" : "no (shares its host)").append("</td></tr>\n");
        }
        page.append("</table>\n");
        if (run.executors().stream().allMatch(executor -> executor.chiplets() <= 1) && !run.executors().isEmpty()
                && run.executors().stream().map(RunFacts.Executor::host).distinct().count() == run.executors().size()) {
            page.append("<p class=\"note\">Each executor had one chiplet: placement had nothing to separate, so at most the plugin's own cost can show.</p>\n");
        }
        Map<String, Long> byChiplet = run.tasksByChiplet();
        page.append("<h4>Tasks per chiplet</h4>\n<p>").append(run.tasks()).append(" tasks started on the executors' ").append(term("chiplets", "topology.md", "chiplets"))
                .append(", ").append(run.unplaced())
                .append(" of them ").append(term("unplaced", "measuring.md", "what-you-see")).append(" (control tasks, or placement off).</p>\n")
                .append(bars(byChiplet));
        if (!run.placement().isEmpty()) {
            // Where each executor's tasks ran: chiplet ids are per host, so the same id on two executors of one host is one chiplet.
            page.append("<table><tr><th>executor</th><th>tasks</th><th>unplaced</th><th>failed to place</th><th>tasks per chiplet</th></tr>\n");
            run.placement().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(executor -> page.append("<tr><td>").append(escape(executor.getKey()))
                    .append("</td><td>").append(executor.getValue().tasks()).append("</td><td>").append(executor.getValue().unplaced()).append("</td><td>")
                    .append(executor.getValue().failed()).append("</td><td>").append(escape(executor.getValue().tasksByChiplet().entrySet().stream()
                            .map(chiplet -> "chiplet " + chiplet.getKey() + ": " + chiplet.getValue()).collect(java.util.stream.Collectors.joining(", "))))
                    .append("</td></tr>\n"));
            page.append("</table>\n");
        }
        tasks(page, run.taskPlaces());
        run.settings().ifPresent(settings -> {
            page.append("<h4>Settings the plugin chose</h4>\n<p class=\"note\">Based on ").append(escape(settings.basis())).append(". See <a href=\"")
                    .append(docs("spark.md")).append("#driver\">partition sizing</a>.</p>\n<ul>");
            settings.settings().forEach(setting -> page.append("<li><code>").append(escape(setting.replaceFirst(":.*", ""))).append("</code>")
                    .append(escape(setting.contains(":") ? setting.substring(setting.indexOf(':')) : "")).append("</li>"));
            page.append("</ul>\n");
        });
        if (!run.measurements().isEmpty()) {
            page.append("<h4><a href=\"").append(docs("measuring.md")).append("#what-you-see\">Measurement</a> over the run</h4>\n");
            run.lastReport().map(report -> report.get("summary")).ifPresent(summary -> page.append("<p>").append(escape(String.valueOf(summary))).append("</p>\n"));
            page.append(chart(run.measurements()));
            page.append(String.format(Locale.ROOT, "<p>Plugin's own CPU time: %.1f ms, %s of the job's %.1f s of task CPU time.</p>\n", run.pluginCpuNanos() / 1e6,
                    run.jobCpuNanos() == 0 ? "unknown share" : String.format(Locale.ROOT, "%.3f%%", 100.0 * run.pluginCpuNanos() / run.jobCpuNanos()), run.jobCpuNanos() / 1e9));
        }
        page.append("<h4><a href=\"").append(docs("measuring.md")).append("#the-guard\">Guard</a></h4>\n");
        if (run.guard().isEmpty()) {
            page.append("<p>No guard action: placement went on throughout.</p>\n");
        }
        else {
            page.append("<ul>");
            run.guard().forEach(action -> page.append("<li>").append(Instant.ofEpochMilli(action.time())).append(": ")
                    .append(action.placing() ? "placing again" : "placement stopped").append(". ").append(escape(action.why())).append("</li>"));
            page.append("</ul>\n");
        }
        page.append("</div>\n");
    }

    /** Each host's chiplets as a picture, its executors' CPUs in their colours, tasks per chiplet in the labels. */
    private void hosts(StringBuilder page, RunFacts run)
    {
        Map<String, List<RunFacts.Executor>> byHost = new TreeMap<>();
        run.executors().forEach(executor -> byHost.computeIfAbsent(executor.host(), host -> new ArrayList<>()).add(executor));
        boolean drawn = false;
        for (Map.Entry<String, List<RunFacts.Executor>> host : byHost.entrySet()) {
            Optional<MachinePicture> machine = host.getValue().stream().map(RunFacts.Executor::machine).flatMap(Optional::stream).findFirst();
            if (machine.isEmpty()) {
                continue;
            }
            Map<Integer, java.util.SortedSet<String>> owners = new TreeMap<>();
            Map<Integer, Long> tasks = new TreeMap<>();
            for (RunFacts.Executor executor : host.getValue()) {
                executor.cpus().stream().forEach(cpu -> owners.computeIfAbsent(cpu, key -> new java.util.TreeSet<>()).add(executor.id()));
                RunFacts.Placement placed = run.placement().get(executor.id());
                if (placed != null) {
                    placed.tasksByChiplet().forEach((chiplet, count) -> {
                        try {
                            tasks.merge(Integer.parseInt(chiplet), count, Long::sum);
                        }
                        catch (NumberFormatException e) {
                            // Not a chiplet id: nothing to mark.
                        }
                    });
                }
            }
            Map<Integer, String> cpuOwners = new TreeMap<>();
            owners.forEach((cpu, ids) -> cpuOwners.put(cpu, String.join(", ", ids)));
            page.append("<figure class=\"host\" data-host=\"").append(escape(host.getKey())).append("\">")
                    .append(TopologySvg.inline(machine.get(), new TopologySvg.Marks("host " + host.getKey(), cpuOwners, tasks)))
                    .append("<figcaption class=\"note\">Host ").append(escape(host.getKey())).append(": its ").append(term("chiplets", "topology.md", "chiplets"))
                    .append(" (CPUs sharing one L3 cache), each executor's CPUs in its colour, the tasks started on each chiplet in its label.</figcaption></figure>\n");
            drawn = true;
        }
        if (!drawn && !run.executors().isEmpty()) {
            page.append("<p class=\"note\">No executor wrote its host's picture (a plugin version before it did).</p>\n");
        }
    }

    /** The executor's chiplets and CPUs, as its host's picture names them. */
    private static String chipletsOf(RunFacts.Executor executor)
    {
        if (executor.cpus().isEmpty()) {
            return "none of its own";
        }
        String chiplets = executor.machine().map(machine -> machine.chiplets().stream().filter(chiplet -> chiplet.cpus().intersects(executor.cpus()))
                .map(chiplet -> Integer.toString(chiplet.id())).collect(java.util.stream.Collectors.joining(", "))).orElse("?");
        return chiplets + " (CPUs " + executor.cpus().toList() + ")";
    }

    /** Tasks per stage, executor, chiplet and arm, then the last tasks one by one; each table says its bound. */
    private void tasks(StringBuilder page, TaskView view)
    {
        if (view.holdsNothing()) {
            return;
        }
        page.append("<h4>Tasks per stage</h4>\n<p class=\"note\">").append(view.tasksEnded()).append(" tasks ended. Shown: the last ").append(TaskView.MAX_STAGES)
                .append(" stages at most");
        if (view.stagesLeftOut() > 0) {
            page.append(" (").append(view.stagesLeftOut()).append(" earlier stages left out)");
        }
        page.append(", so that the page stays small on jobs of many tasks. The ").append(term("arm", "measuring.md", "design"))
                .append(" is <i>placed</i> or <i>control</i> where the run was ").append(term("measured", "measuring.md", "measuring-placement-in-place"))
                .append("; time is from the task's start to its end on the executor.</p>\n");
        page.append("<table class=\"stages\"><tr><th>stage</th><th>executor</th><th>chiplet</th><th>arm</th><th>tasks</th><th>mean time</th></tr>\n");
        for (TaskView.StageRow row : view.stages()) {
            page.append("<tr><td>").append(row.stageId()).append("</td><td>").append(escape(row.executorId())).append("</td><td>").append(chiplet(row.chiplet()))
                    .append("</td><td>").append(arm(row.arm())).append("</td><td>").append(row.tasks()).append("</td><td>")
                    .append(row.tasks() == 0 ? "" : millis(row.millis() / (double) row.tasks())).append("</td></tr>\n");
        }
        page.append("</table>\n");
        page.append("<h4>Last tasks</h4>\n<p class=\"note\">The last ").append(view.recent().size()).append(" tasks to end (at most ").append(TaskView.MAX_RECENT)
                .append("; each executor sends its last few every few seconds, so these are a sample of the last tasks, not all of them).</p>\n");
        page.append("<table class=\"tasks\"><tr><th>stage</th><th>task</th><th>partition</th><th>executor</th><th>chiplet</th><th>CPUs</th><th>arm</th><th>time</th><th>outcome</th></tr>\n");
        for (TaskView.TaskRow task : view.recent()) {
            page.append("<tr><td>").append(task.stageId()).append("</td><td>").append(task.taskId()).append("</td><td>").append(task.partition()).append("</td><td>")
                    .append(escape(task.executorId())).append("</td><td>").append(chiplet(task.chiplet())).append("</td><td>")
                    .append(task.cpus().isEmpty() ? "not bound" : escape(task.cpus())).append("</td><td>").append(arm(task.arm())).append("</td><td>")
                    .append(millis(task.millis())).append("</td><td>").append(task.failed() ? "failed" : "succeeded").append("</td></tr>\n");
        }
        page.append("</table>\n");
    }

    private static String chiplet(int id)
    {
        return id == TaskView.NO_CHIPLET ? "none" : Integer.toString(id);
    }

    private static String arm(String arm)
    {
        return arm.isEmpty() ? "not measured" : escape(arm);
    }

    private static String millis(double millis)
    {
        return millis >= 10_000 ? String.format(Locale.ROOT, "%.1f s", millis / 1000) : String.format(Locale.ROOT, "%.0f ms", millis);
    }

    /** A word of the page, linked to where the docs explain it. */
    private String term(String word, String page, String anchor)
    {
        return "<a href=\"" + docs(page) + "#" + escape(anchor) + "\">" + escape(word) + "</a>";
    }

    /** Tasks per chiplet as horizontal bars. */
    private static String bars(Map<String, Long> byChiplet)
    {
        if (byChiplet.isEmpty()) {
            return "<p class=\"note\">No executor reported task counts.</p>\n";
        }
        long most = byChiplet.values().stream().mapToLong(Long::longValue).max().orElse(1);
        StringBuilder svg = new StringBuilder();
        int height = 22 * byChiplet.size() + 10;
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"520\" height=\"").append(height).append("\" role=\"img\" aria-label=\"tasks per chiplet\">");
        int y = 5;
        for (Map.Entry<String, Long> chiplet : byChiplet.entrySet()) {
            double width = 380.0 * chiplet.getValue() / Math.max(1, most);
            svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">chiplet %s</text><rect x=\"80\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"#4a7fb5\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%d</text>", y + 13, escape(chiplet.getKey()), y, width, 85 + width, y + 13, chiplet.getValue()));
            y += 22;
        }
        return svg.append("</svg>\n").toString();
    }

    /** The speed-up after each update, with its interval (capped bars), on a log scale around 1. */
    private static String chart(List<RunFacts.MeasurePoint> points)
    {
        List<RunFacts.MeasurePoint> withFigure = points.stream().filter(point -> Double.isFinite(point.speedUpLow()) && Double.isFinite(point.speedUpHigh())).toList();
        if (withFigure.isEmpty()) {
            return "<p class=\"note\">No update had enough tasks of both arms for a figure.</p>\n";
        }
        double low = Math.min(0.8, withFigure.stream().mapToDouble(RunFacts.MeasurePoint::speedUpLow).min().orElse(1));
        double high = Math.max(1.25, withFigure.stream().mapToDouble(RunFacts.MeasurePoint::speedUpHigh).max().orElse(1));
        int width = 600;
        int height = 200;
        double step = (width - 60.0) / Math.max(1, withFigure.size());
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height + 20).append("\" role=\"img\" aria-label=\"speed-up over the run\">");
        double one = y(1, low, high, height);
        svg.append(String.format(Locale.ROOT, "<line x1=\"50\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4\"/><text x=\"0\" y=\"%.1f\" font-size=\"11\">1 (no change)</text>",
                width, one, one, one + 4));
        svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%.1f\" font-size=\"11\">%.2f</text><text x=\"0\" y=\"%.1f\" font-size=\"11\">%.2f</text>",
                y(high, low, high, height) + 10, high, y(low, low, high, height), low));
        for (int i = 0; i < withFigure.size(); i++) {
            RunFacts.MeasurePoint point = withFigure.get(i);
            double x = 60 + step * (i + 0.5);
            double top = y(point.speedUpHigh(), low, high, height);
            double bottom = y(point.speedUpLow(), low, high, height);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>", x, x, top, bottom));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>",
                    x - 4, x + 4, top, top, x - 4, x + 4, bottom, bottom));
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%d placed, %d control: %.3fx (%.3f to %.3f)</title></circle>", x,
                    y(point.speedUp(), low, high, height), point.placing() ? "#2a7" : "#c33", point.placed(), point.control(), point.speedUp(), point.speedUpLow(), point.speedUpHigh()));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"60\" y=\"%d\" font-size=\"11\">updates in time order; bars: 95%% interval; red: placement stopped by the guard</text>", height + 15));
        return svg.append("</svg>\n").toString();
    }

    /** Each run's interval and the pooled one, as a forest plot. */
    private static String forest(List<RunFacts> runs, Optional<PooledRuns> pooled)
    {
        List<String> labels = new ArrayList<>();
        List<double[]> rows = new ArrayList<>();
        for (RunFacts run : runs) {
            if (!run.measurements().isEmpty()) {
                RunFacts.MeasurePoint last = run.measurements().get(run.measurements().size() - 1);
                if (Double.isFinite(last.speedUpLow())) {
                    labels.add(run.id());
                    rows.add(new double[] {last.speedUp(), last.speedUpLow(), last.speedUpHigh()});
                }
            }
        }
        pooled.ifPresent(figure -> {
            labels.add("pooled");
            double[] speedUp = figure.speedUp();
            rows.add(new double[] {speedUp[1], speedUp[0], speedUp[2]});
        });
        if (rows.isEmpty()) {
            return "";
        }
        double low = Math.min(0.8, rows.stream().mapToDouble(row -> row[1]).min().orElse(1));
        double high = Math.max(1.25, rows.stream().mapToDouble(row -> row[2]).max().orElse(1));
        StringBuilder svg = new StringBuilder();
        int height = 22 * rows.size() + 10;
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"").append(height).append("\" role=\"img\" aria-label=\"speed-up per run\">");
        double one = x(1, low, high);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"4\"/>", one, one, height));
        for (int i = 0; i < rows.size(); i++) {
            double[] row = rows.get(i);
            int y = 16 + 22 * i;
            svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"11\">%s</text>", y + 4, escape(labels.get(i))));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>"
                    + "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>", x(row[1], low, high), x(row[2], low, high), y, y,
                    x(row[1], low, high), x(row[1], low, high), y - 4, y + 4, x(row[2], low, high), x(row[2], low, high), y - 4, y + 4));
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"%d\" fill=\"#4a7fb5\"/>", x(row[0], low, high), y, labels.get(i).equals("pooled") ? 5 : 3));
        }
        return svg.append("</svg>\n").toString();
    }

    private static double y(double value, double low, double high, int height)
    {
        return 5 + (height - 10) * (Math.log(high) - Math.log(value)) / (Math.log(high) - Math.log(low));
    }

    private static double x(double value, double low, double high)
    {
        return 180 + 400 * (Math.log(value) - Math.log(low)) / (Math.log(high) - Math.log(low));
    }

    private String docs(String page)
    {
        return escape(docsBase + page);
    }

    static String escape(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
