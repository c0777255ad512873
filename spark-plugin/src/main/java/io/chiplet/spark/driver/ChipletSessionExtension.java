package io.chiplet.spark.driver;

import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.runtime.BoxedUnit;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The driver plugin's way into every SparkSession: named in {@code spark.sql.extensions} by the plugin (appended to
 * the user's), so Spark applies it to the sessions the builder makes and Spark Connect's per-client sessions (made
 * with {@code newSession()}, which share the extensions). It adds one check rule that checks nothing: building it,
 * when a session first analyses a query, registers the session with the running driver plugin, which sets its
 * partition figure there and keeps it current.
 *
 * <p>Only the API {@code SparkSession} and {@code RuntimeConfig} are used, both alike on Spark 3.5 to 4.3 (on 4.x
 * the session passed is the classic one, a subclass). Anything failing here is logged once and leaves the session
 * as Spark made it.
 */
public final class ChipletSessionExtension
        implements Function1<SparkSessionExtensions, BoxedUnit>
{
    /** The running driver plugin's sessions; empty when none runs (plugin off, failed, or stopped). */
    static final AtomicReference<SessionRegistrar> ACTIVE_DRIVER = new AtomicReference<>();

    private static final Logger log = LoggerFactory.getLogger(ChipletSessionExtension.class);
    private static volatile boolean warned;

    /** What the extension hands sessions to. */
    @FunctionalInterface
    interface SessionRegistrar
    {
        void register(Object session);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public BoxedUnit apply(SparkSessionExtensions extensions)
    {
        // Raw: the rule builder's parameter is sql.SparkSession on 3.5 and classic.SparkSession on 4.x.
        Function1 builder = new CheckRuleBuilder();
        extensions.injectCheckRule(builder);
        return BoxedUnit.UNIT;
    }

    /** Registers the session it is built for; the rule it returns does nothing. */
    private static final class CheckRuleBuilder
            implements Function1<Object, Function1<Object, BoxedUnit>>
    {
        @Override
        public Function1<Object, BoxedUnit> apply(Object session)
        {
            SessionRegistrar registrar = ACTIVE_DRIVER.get();
            if (registrar != null) {
                try {
                    registrar.register(session);
                }
                catch (RuntimeException | LinkageError e) {
                    if (!warned) {
                        warned = true;
                        log.warn("Chiplet plugin cannot size partitions in a SparkSession, it keeps Spark's settings: {}", e.toString());
                    }
                }
            }
            return plan -> BoxedUnit.UNIT;
        }
    }

    /** A session's runtime settings; only keys set in the session count as present (not Spark's defaults). */
    static SessionConf confOf(Object session)
    {
        RuntimeConfig conf = ((SparkSession) session).conf();
        return new SessionConf()
        {
            @Override
            public Optional<String> get(String key)
            {
                return conf.contains(key) ? Optional.of(conf.get(key)) : Optional.empty();
            }

            @Override
            public void set(String key, String value)
            {
                conf.set(key, value);
            }
        };
    }
}
