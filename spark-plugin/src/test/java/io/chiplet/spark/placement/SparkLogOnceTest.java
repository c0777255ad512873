package io.chiplet.spark.placement;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.Filter.Result;
import org.apache.logging.log4j.message.Message;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The log as a user reads it: Spark 4.x logs its daemon-module line for every Python task (through SLF4J to log4j 2, as
 * Spark does); once the plugin has set the module, the line is there once and every other line of Spark's stays.
 */
class SparkLogOnceTest
{
    private static final String RUNNER = "org.apache.spark.api.python.PythonRunner";

    @Test
    void sparksDaemonModuleLineIsLoggedOncePerExecutorNotOncePerTask()
    {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        List<String> lines = new CopyOnWriteArrayList<>();
        AbstractAppender recorder = new AbstractAppender("chiplet-test-recorder", null, null, true, Property.EMPTY_ARRAY)
        {
            @Override
            public void append(LogEvent event)
            {
                lines.add(event.getLoggerName() + ": " + event.getMessage().getFormattedMessage());
            }
        };
        recorder.start();
        LoggerConfig spark = new LoggerConfig("org.apache.spark.api.python", Level.INFO, false);
        spark.addAppender(recorder, Level.INFO, null);
        configuration.addLogger(spark.getName(), spark);
        context.updateLoggers();
        try {
            Logger runner = LoggerFactory.getLogger(RUNNER);
            String daemonLine = "Python daemon module in PySpark is set to [chiplet_pyspark_daemon] in 'spark.python.daemon.module', using this to start the daemon up.";
            runner.info(daemonLine);
            PythonWorkerPlacement.quietSparksDaemonModuleLine();
            for (int task = 0; task < 3; task++) {
                runner.info(daemonLine);
                runner.info("Times: total = 40, boot = 2, init = 1, finish = 0");
            }
            LoggerFactory.getLogger(RUNNER).info("Python daemon module in PySpark is set to [my_daemon] in 'spark.python.daemon.module'");

            // Before the plugin set the module Spark's line is Spark's; after, its first stays and its repeats go.
            assertThat(lines).containsExactly(
                    RUNNER + ": " + daemonLine,
                    RUNNER + ": " + daemonLine,
                    RUNNER + ": Times: total = 40, boot = 2, init = 1, finish = 0",
                    RUNNER + ": Times: total = 40, boot = 2, init = 1, finish = 0",
                    RUNNER + ": Times: total = 40, boot = 2, init = 1, finish = 0",
                    RUNNER + ": Python daemon module in PySpark is set to [my_daemon] in 'spark.python.daemon.module'");
        }
        finally {
            configuration.removeLogger(spark.getName());
            context.updateLoggers();
            recorder.stop();
        }
    }

    /**
     * The filter is the whole JVM's: it judges only Spark's INFO lines, and formats nothing else (a debug call that
     * no logger prints stays as cheap as without the plugin); a line of ours with the same words is not Spark's.
     */
    @Test
    void onlySparksInfoLinesAreJudgedAndNoOtherMessageIsFormatted()
    {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        SparkLogOnce filter = new SparkLogOnce("Python daemon module");
        Message neverFormatted = new Message()
        {
            @Override
            public String getFormattedMessage()
            {
                throw new AssertionError("formatted");
            }

            @Override
            public String getFormat()
            {
                return "";
            }

            @Override
            public Object[] getParameters()
            {
                return new Object[0];
            }

            @Override
            public Throwable getThrowable()
            {
                return null;
            }
        };
        assertThat(filter.filter(context.getLogger(RUNNER), Level.DEBUG, null, neverFormatted, null)).isEqualTo(Result.NEUTRAL);
        assertThat(filter.filter(context.getLogger("io.chiplet.test"), Level.INFO, null, neverFormatted, null)).isEqualTo(Result.NEUTRAL);

        String line = "Python daemon module in PySpark is set to [chiplet_pyspark_daemon]";
        for (int repeat = 0; repeat < 2; repeat++) {
            assertThat(filter.filter(context.getLogger("io.chiplet.test"), Level.INFO, null, line)).isEqualTo(Result.NEUTRAL);
        }
        assertThat(filter.filter(context.getLogger(RUNNER), Level.INFO, null, line)).isEqualTo(Result.NEUTRAL);
        assertThat(filter.filter(context.getLogger(RUNNER), Level.INFO, null, line)).isEqualTo(Result.DENY);
    }
}
