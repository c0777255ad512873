package io.chiplet.it;

import org.apache.spark.sql.SparkSession;

import java.util.Map;

/** Embedded Spark sessions for the tests: local mode, no UI, loopback only. */
final class Spark
{
    static final String PLUGIN = "io.chiplet.spark.ChipletPlugin";

    private Spark() {}

    static SparkSession start(boolean withPlugin, Map<String, String> conf)
    {
        SparkSession.Builder builder = SparkSession.builder()
                .master("local[2]")
                .appName("chiplet-it")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1");
        if (withPlugin) {
            builder.config("spark.plugins", PLUGIN);
        }
        conf.forEach(builder::config);
        return builder.getOrCreate();
    }

    static void stop(SparkSession spark)
    {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }
}
