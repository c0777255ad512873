package io.chiplet.spark;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chiplet-aware Spark: {@code --conf spark.plugins=io.chiplet.spark.ChipletPlugin}.
 *
 * <p>This is the one class Spark loads by the name the user gave, and it is Java 8 byte code, so that it loads on
 * every JVM any Spark 3.x or 4.x runs on. It checks the JVM, then loads the plugin proper
 * ({@link ChipletSparkPlugin}, Java 17 byte code) by name. On a JVM older than 17, or when the plugin proper cannot be
 * loaded for any reason ({@link LinkageError} included), it logs one warning and gives Spark no driver and no executor
 * component, which Spark takes as a plugin with nothing to do: the job runs exactly as without us.
 */
public final class ChipletPlugin
        implements SparkPlugin
{
    /** The oldest Java feature release the plugin proper runs on. */
    static final int MINIMUM_JAVA = 17;

    private static final Logger log = LoggerFactory.getLogger(ChipletPlugin.class);

    private final SparkPlugin plugin;

    /** What Spark instantiates. */
    public ChipletPlugin()
    {
        this.plugin = load(System.getProperty("java.specification.version", ""));
    }

    @Override
    public DriverPlugin driverPlugin()
    {
        if (plugin == null) {
            return null;
        }
        try {
            return plugin.driverPlugin();
        }
        catch (RuntimeException | LinkageError e) {
            log.warn("Chiplet plugin switched off on the driver: {}; Spark runs as without it", e.toString());
            return null;
        }
    }

    @Override
    public ExecutorPlugin executorPlugin()
    {
        if (plugin == null) {
            return null;
        }
        try {
            return plugin.executorPlugin();
        }
        catch (RuntimeException | LinkageError e) {
            log.warn("Chiplet plugin switched off on this executor: {}; Spark runs as without it", e.toString());
            return null;
        }
    }

    private static SparkPlugin load(String javaVersion)
    {
        int feature = featureOf(javaVersion);
        if (feature < MINIMUM_JAVA) {
            log.warn("Chiplet plugin switched off: it needs Java {} or newer, this JVM is Java {}; Spark runs as without it",
                    MINIMUM_JAVA, javaVersion);
            return null;
        }
        try {
            return (SparkPlugin) Class.forName("io.chiplet.spark.ChipletSparkPlugin", true, ChipletPlugin.class.getClassLoader())
                    .getConstructor()
                    .newInstance();
        }
        catch (Exception | LinkageError e) {
            log.warn("Chiplet plugin switched off: it could not load ({}); Spark runs as without it", e.toString());
            return null;
        }
    }

    /** {@code 1.8} is 8, {@code 17} is 17; anything unreadable is 0. */
    static int featureOf(String javaSpecificationVersion)
    {
        String version = javaSpecificationVersion.startsWith("1.") ? javaSpecificationVersion.substring(2) : javaSpecificationVersion;
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(version.substring(0, Math.min(end, 9)));
    }
}
