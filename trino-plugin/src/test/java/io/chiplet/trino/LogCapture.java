package io.chiplet.trino;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the plugin's log records: SLF4J reaches java.util.logging through slf4j-jdk14, as in a Trino server. The
 * logger is held here because java.util.logging keeps loggers only weakly.
 */
public final class LogCapture
        extends Handler
        implements AutoCloseable
{
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger)
    {
        this.logger = logger;
    }

    public static LogCapture of(Class<?> loggingClass)
    {
        return of(loggingClass.getName());
    }

    public static LogCapture of(String loggerName)
    {
        LogCapture capture = new LogCapture(Logger.getLogger(loggerName));
        capture.setLevel(Level.ALL);
        capture.logger.addHandler(capture);
        return capture;
    }

    /** The formatted messages of the warnings so far. */
    public List<String> warnings()
    {
        return records.stream()
                .filter(record -> record.getLevel().intValue() >= Level.WARNING.intValue())
                .map(record -> new java.util.logging.SimpleFormatter().formatMessage(record))
                .toList();
    }

    /** The formatted messages of every record so far. */
    public List<String> messages()
    {
        return records.stream().map(record -> new java.util.logging.SimpleFormatter().formatMessage(record)).toList();
    }

    @Override
    public void publish(LogRecord record)
    {
        records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close()
    {
        logger.removeHandler(this);
    }
}
