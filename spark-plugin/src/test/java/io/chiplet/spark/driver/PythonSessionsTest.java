package io.chiplet.spark.driver;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PythonSessionsTest
{
    @Test
    void sparkConnectInAnyFormMeansIsolatedSessions()
    {
        assertThat(PythonSessions.isolated(Map.of(), "org.apache.spark.deploy.SparkSubmit --class org.apache.spark.sql.connect.service.SparkConnectServer spark-internal"))
                .hasValueSatisfying(reason -> assertThat(reason).contains("Spark Connect server"));
        assertThat(PythonSessions.isolated(Map.of("spark.plugins", "io.chiplet.spark.ChipletPlugin,org.apache.spark.sql.connect.SparkConnectPlugin"), "")).isPresent();
        assertThat(PythonSessions.isolated(Map.of("spark.api.mode", "connect"), "")).isPresent();
        assertThat(PythonSessions.isolated(Map.of("spark.sql.artifact.isolation.enabled", "true"), "")).isPresent();
    }

    @Test
    void aClassicApplicationRunsPythonInTheExecutorsDirectory()
    {
        assertThat(PythonSessions.isolated(Map.of("spark.plugins", "io.chiplet.spark.ChipletPlugin", "spark.api.mode", "classic"),
                "org.apache.spark.deploy.SparkSubmit --master spark://m:7077 app.py")).isEmpty();
    }
}
