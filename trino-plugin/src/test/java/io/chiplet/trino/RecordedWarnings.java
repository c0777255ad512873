package io.chiplet.trino;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records the warnings one of our loggers writes. The plugin logs through SLF4J onto java.util.logging, as Trino
 * does, so a handler on the JUL logger of the same name sees them.
 */
public final class RecordedWarnings
        extends Handler
        implements AutoCloseable
{
    private final Logger logger;
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    private RecordedWarnings(Logger logger)
    {
        this.logger = logger;
    }

    public static RecordedWarnings of(Class<?> loggingClass)
    {
        RecordedWarnings recorded = new RecordedWarnings(Logger.getLogger(loggingClass.getName()));
        recorded.logger.addHandler(recorded);
        return recorded;
    }

    public List<String> warnings()
    {
        return List.copyOf(warnings);
    }

    @Override
    public void publish(LogRecord record)
    {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            warnings.add(record.getMessage());
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close()
    {
        logger.removeHandler(this);
    }
}
