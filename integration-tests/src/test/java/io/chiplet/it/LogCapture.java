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

/** Collects what the plugin logs at WARN or above while open (Spark 4 logs through log4j2). */
final class LogCapture
        extends AbstractAppender
        implements AutoCloseable
{
    private static final String PLUGIN_LOGGERS = "io.chiplet";

    private final List<String> warnings = new CopyOnWriteArrayList<>();

    private LogCapture()
    {
        super("chiplet-capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    }

    static LogCapture capture()
    {
        LogCapture capture = new LogCapture();
        capture.start0();
        return capture;
    }

    private void start0()
    {
        start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        configuration.getRootLogger().addAppender(this, Level.WARN, null);
        context.updateLoggers();
    }

    @Override
    public void append(LogEvent event)
    {
        if (event.getLoggerName().startsWith(PLUGIN_LOGGERS) && event.getLevel().isMoreSpecificThan(Level.WARN)) {
            warnings.add(event.getMessage().getFormattedMessage());
        }
    }

    List<String> warnings()
    {
        return List.copyOf(warnings);
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
