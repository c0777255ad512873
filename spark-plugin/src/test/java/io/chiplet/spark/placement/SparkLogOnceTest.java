package io.chiplet.spark.placement;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
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
            // A line of ours with the same words is not Spark's and stays.
            LoggerFactory.getLogger("io.chiplet.test").info(daemonLine);
        }
        finally {
            configuration.removeLogger(spark.getName());
            context.updateLoggers();
            recorder.stop();
        }
    }
}
