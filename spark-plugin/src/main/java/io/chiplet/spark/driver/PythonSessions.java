package io.chiplet.spark.driver;

import java.util.Map;
import java.util.Optional;

/**
 * Whether this application may run Python for sessions with isolated artifacts, whose Python daemon Spark (3.5 to
 * 4.3, {@code PythonWorkerFactory}) starts in {@code <SparkFiles root>/<session UUID>}, a directory made when the
 * session's first Python task starts: no module written beforehand can be there, so executors keep Spark's daemon.
 * Spark Connect runs every client session so, whether started as its server class or as a plugin.
 */
final class PythonSessions
{
    static final String CONNECT_SERVER = "org.apache.spark.sql.connect.service.SparkConnectServer";
    static final String CONNECT_PLUGIN = "org.apache.spark.sql.connect.SparkConnectPlugin";

    private PythonSessions() {}

    /** Why sessions may be isolated, if they may. */
    static Optional<String> isolated(Map<String, String> conf, String javaCommand)
    {
        if (javaCommand != null && javaCommand.contains(CONNECT_SERVER)) {
            return Optional.of("this application is a Spark Connect server");
        }
        if (conf.getOrDefault("spark.plugins", "").contains(CONNECT_PLUGIN)) {
            return Optional.of("spark.plugins runs Spark Connect (" + CONNECT_PLUGIN + ")");
        }
        if ("connect".equalsIgnoreCase(conf.getOrDefault("spark.api.mode", "").strip())) {
            return Optional.of("spark.api.mode = connect");
        }
        if ("true".equalsIgnoreCase(conf.getOrDefault("spark.sql.artifact.isolation.enabled", "").strip())) {
            return Optional.of("spark.sql.artifact.isolation.enabled = true");
        }
        return Optional.empty();
    }
}
