package io.chiplet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/grafana/chiplet.json} parses as a Grafana dashboard and every metric it queries is one the code makes:
 * the Spark driver's gauges (registered by name in the driver plugin and the measuring listener, served by the
 * PrometheusServlet as {@code metrics_<app>_driver_plugin_io_chiplet_spark_ChipletPlugin_<name, dots as _>_Value}) and
 * the Trino beans' attributes (getters of the {@code *MXBean} interfaces, as the Prometheus JMX exporter names them:
 * {@code io_chiplet_trino_<type>_<attribute>}).
 */
class GrafanaDashboardTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SPARK = Pattern.compile("ChipletPlugin_([A-Za-z0-9_.*]+?)_Value");
    private static final Pattern TRINO = Pattern.compile("io_chiplet_trino_(Placement|Measurement)_([A-Za-z]+)");

    @Test
    void everyQueriedMetricExistsInTheCode()
            throws IOException
    {
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("docs/grafana/chiplet.json").toFile());
        assertThat(dashboard.get("title").asText()).isNotBlank();
        List<String> queries = new ArrayList<>();
        dashboard.get("panels").forEach(panel -> panel.path("targets").forEach(target -> queries.add(target.get("expr").asText())));
        assertThat(queries).hasSizeGreaterThan(10);

        Set<String> sparkGauges = sparkGauges();
        Set<String> used = new TreeSet<>();
        for (String query : queries) {
            Matcher spark = SPARK.matcher(query);
            Matcher trino = TRINO.matcher(query);
            boolean found = false;
            while (spark.find()) {
                found = true;
                String name = spark.group(1).replace("_.*", "").replace('_', '.');
                // cluster.tasks.chiplet.<id>: one gauge per chiplet, queried by pattern.
                assertThat(sparkGauges).as("Spark gauge of %s", query).contains(name.equals("cluster.tasks.chiplet") ? name + ".<id>" : name);
                used.add(name);
            }
            while (trino.find()) {
                found = true;
                assertThat(trinoAttributes(trino.group(1))).as("Trino %s bean attribute of %s", trino.group(1), query).contains(trino.group(2));
            }
            assertThat(found).as("a metric of ours in %s", query).isTrue();
        }
        // Every gauge has a panel.
        assertThat(used).containsAll(sparkGauges.stream().map(name -> name.replace(".<id>", "")).toList());
    }

    /** The names the driver registers, from the sources ({@code register("name", ...)}), per-chiplet ones as {@code <id>}. */
    private static Set<String> sparkGauges()
            throws IOException
    {
        Set<String> names = new TreeSet<>();
        for (String source : List.of("spark-plugin/src/main/java/io/chiplet/spark/driver/ChipletDriverPlugin.java",
                "spark-plugin/src/main/java/io/chiplet/spark/measure/MeasuringListener.java")) {
            Matcher register = Pattern.compile("register\\(\"([a-zA-Z.]+)\"").matcher(Files.readString(ROOT.resolve(source)));
            while (register.find()) {
                names.add(register.group(1));
            }
        }
        assertThat(Files.readString(ROOT.resolve("spark-plugin/src/main/java/io/chiplet/spark/driver/ChipletDriverPlugin.java")))
                .contains("MetricRegistry.name(\"cluster.tasks.chiplet\", Integer.toString(id))");
        names.add("cluster.tasks.chiplet.<id>");
        return names;
    }

    private static Set<String> trinoAttributes(String type)
            throws IOException
    {
        String source = Files.readString(ROOT.resolve("trino-plugin/src/main/java/io/chiplet/trino/connector/Chiplet" + type + "MXBean.java"));
        Set<String> attributes = new TreeSet<>();
        Matcher getter = Pattern.compile("\\s(?:get|is)([A-Z][A-Za-z]*)\\(\\);").matcher(source);
        while (getter.find()) {
            attributes.add(getter.group(1));
        }
        return attributes;
    }
}
