package io.chiplet.trino.guard;

import org.slf4j.Logger;

import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Keeps one part of the plugin's failures out of Trino: the first failure (a bad setting, an unreadable file, a bug
 * of ours, a class or member the running Trino or JVM cannot link) logs one warning naming the cause and switches
 * that part off, leaving Trino as it would be without it. The mechanism is core's
 * {@link io.chiplet.failopen.FailOpenSwitch}, the one the Spark plugin uses; this names a part of the Trino plugin
 * and what Trino does without it.
 */
public final class FailOpenSwitch
{
    private final io.chiplet.failopen.FailOpenSwitch failOpen;

    /**
     * @param part what is switched off, as the warning names it ("chiplet session defaults")
     * @param whenOff what Trino does instead ("Trino's own defaults apply")
     */
    public FailOpenSwitch(Logger log, String part, String whenOff)
    {
        this(log, part, whenOff, cause -> {});
    }

    /** @param onOff told the cause once, when the part goes off (to show it in a table) */
    public FailOpenSwitch(Logger log, String part, String whenOff, Consumer<String> onOff)
    {
        this.failOpen = new io.chiplet.failopen.FailOpenSwitch(log, requireNonNull(part, "part is null") + " off", whenOff, onOff);
    }

    public boolean active()
    {
        return failOpen.active();
    }

    public void disable(String cause)
    {
        failOpen.disable(cause);
    }

    /**
     * For a {@code catch (Throwable e)} around our code: anything our code throws (an exception, a {@link LinkageError}
     * such as {@link NoSuchMethodError} from an SPI or JDK older or newer than ours, an {@link AssertionError}) is ours to
     * absorb, except the JVM running out of memory or breaking down, which is the server's to handle. A stack
     * overflow in our code is ours too.
     */
    public static void rethrowIfFatal(Throwable t)
    {
        io.chiplet.failopen.FailOpenSwitch.rethrowIfFatal(t);
    }
}
