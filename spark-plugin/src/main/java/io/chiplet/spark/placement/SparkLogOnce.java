package io.chiplet.spark.placement;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.message.Message;

import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * Lets one line that Spark writes once per task through the first time in this JVM and drops its repeats. Spark 4.x
 * logs "Python daemon module in PySpark is set to [...]" at INFO every time a Python runner is made, that is for every
 * Python task, once the daemon module is set, as the plugin sets it ({@link PythonWorkerPlacement}). Spark logs through
 * log4j 2 (its default since 3.3): this is a filter of the log4j context, matching only lines of {@code org.apache.spark}
 * loggers that start with the given text; where Spark logs through anything else nothing is installed.
 */
final class SparkLogOnce
        extends AbstractFilter
{
    private final String prefix;
    private final AtomicBoolean seen = new AtomicBoolean();

    SparkLogOnce(String prefix)
    {
        super(Result.NEUTRAL, Result.NEUTRAL);
        this.prefix = requireNonNull(prefix, "prefix is null");
    }

    /**
     * Installs the filter in this JVM's log4j context.
     *
     * @return false where Spark does not log through log4j 2's core here (nothing installed)
     */
    static boolean install(String prefix)
    {
        requireNonNull(prefix, "prefix is null");
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return false;
        }
        SparkLogOnce filter = new SparkLogOnce(prefix);
        filter.start();
        context.addFilter(filter);
        return true;
    }

    /**
     * Whether a line may be the one: Spark's own loggers at INFO. Checked before a message is formatted, since a
     * context-wide filter sees every logging call of the JVM, debug calls included.
     */
    private static boolean candidate(String loggerName, Level level)
    {
        return level == Level.INFO && loggerName != null && loggerName.startsWith("org.apache.spark.");
    }

    private Result judge(String message)
    {
        if (message == null || !message.startsWith(prefix)) {
            return Result.NEUTRAL;
        }
        return seen.compareAndSet(false, true) ? Result.NEUTRAL : Result.DENY;
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, String message, Object... parameters)
    {
        return candidate(logger.getName(), level) ? judge(message) : Result.NEUTRAL;
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, Object message, Throwable thrown)
    {
        return candidate(logger.getName(), level) && message != null ? judge(message.toString()) : Result.NEUTRAL;
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, Message message, Throwable thrown)
    {
        return candidate(logger.getName(), level) && message != null ? judge(message.getFormattedMessage()) : Result.NEUTRAL;
    }

    @Override
    public Result filter(LogEvent event)
    {
        return candidate(event.getLoggerName(), event.getLevel()) && event.getMessage() != null ? judge(event.getMessage().getFormattedMessage()) : Result.NEUTRAL;
    }
}
