package io.chiplet.trino.guard;

import org.slf4j.Logger;

import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Keeps one part of the plugin's failures out of Trino: the first failure (a bad setting, an unreadable file, a bug
 * of ours, a class or member the running Trino or JVM cannot link) logs one warning naming the cause and switches
 * that part off, leaving Trino as it would be without it.
 */
public final class FailOpenSwitch
{
    private final Logger log;
    private final String part;
    private final String whenOff;
    private final Consumer<String> onOff;
    private volatile boolean off;

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
        this.log = requireNonNull(log, "log is null");
        this.part = requireNonNull(part, "part is null");
        this.whenOff = requireNonNull(whenOff, "whenOff is null");
        this.onOff = requireNonNull(onOff, "onOff is null");
    }

    public boolean active()
    {
        return !off;
    }

    public synchronized void disable(String cause)
    {
        requireNonNull(cause, "cause is null");
        if (!off) {
            off = true;
            log.warn("{} off, {}: {}", part, whenOff, cause);
            onOff.accept(whenOff + ": " + cause);
        }
    }

    /**
     * For a {@code catch (Throwable e)} around our code: anything our code throws (an exception, a {@link LinkageError}
     * such as {@link NoSuchMethodError} from an SPI or JDK older or newer than ours, an {@link AssertionError}) is ours to
     * absorb, except the JVM running out of memory or breaking down, which is the server's to handle. A stack
     * overflow in our code is ours too.
     */
    public static void rethrowIfFatal(Throwable t)
    {
        if (t instanceof VirtualMachineError error && !(t instanceof StackOverflowError)) {
            throw error;
        }
    }
}
