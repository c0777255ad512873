package io.chiplet.it;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects what the plugin logs at WARN or above (or a level asked for) while open (Spark 4 logs through log4j2). */
final class LogCapture
        extends AbstractAppender
        implements AutoCloseable
{
    private static final String PLUGIN_LOGGERS = "io.chiplet";

    private record Line(Level level, String message) {}

    private final Level threshold;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private LogCapture(Level threshold)
    {
        super("chiplet-capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
        this.threshold = threshold;
    }

    static LogCapture capture()
    {
        return capture(Level.WARN);
    }

    /** Captures the plugin's lines at {@code threshold} or above. */
    static LogCapture capture(Level threshold)
    {
        LogCapture capture = new LogCapture(threshold);
        capture.start0();
        return capture;
    }

    private void start0()
    {
        start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        configuration.getRootLogger().addAppender(this, threshold, null);
        context.updateLoggers();
    }

    @Override
    public void append(LogEvent event)
    {
        if (event.getLoggerName().startsWith(PLUGIN_LOGGERS) && event.getLevel().isMoreSpecificThan(threshold)) {
            lines.add(new Line(event.getLevel(), event.getMessage().getFormattedMessage()));
        }
    }

    /** The captured lines at WARN or above. */
    List<String> warnings()
    {
        return lines.stream().filter(line -> line.level().isMoreSpecificThan(Level.WARN)).map(Line::message).toList();
    }

    /** The one WARN line each executor logs to say what the plugin did ("Chiplet plugin on executor ..."). */
    List<String> executorSummaries()
    {
        return warnings().stream().filter(LogCapture::isExecutorSummary).toList();
    }

    /**
     * Warnings other than the executors' summaries and the measurement's lines (its summary, and the guard's stop, an
     * outcome it was built for): what went wrong.
     */
    List<String> problems()
    {
        return warnings().stream().filter(line -> !isExecutorSummary(line) && !isMeasurement(line)).toList();
    }

    private static boolean isMeasurement(String line)
    {
        // The end-of-application line; on a host of one L3 group it says placement was not measured.
        return line.startsWith("Chiplet placement measured in place") || line.startsWith("Chiplet placement not measured")
                || line.startsWith("Chiplet plugin stops placing tasks");
    }

    private static boolean isExecutorSummary(String line)
    {
        return line.startsWith("Chiplet plugin on executor ");
    }

    /** Every captured line. */
    List<String> messages()
    {
        return lines.stream().map(Line::message).toList();
    }

    @Override
    public void close()
    {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        LoggerConfig root = context.getConfiguration().getRootLogger();
        root.removeAppender(getName());
        context.updateLoggers();
        stop();
    }
}
