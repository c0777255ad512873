package io.chiplet.failopen;

import org.slf4j.Logger;

import java.util.function.Consumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * One part of a plugin that goes off, with one warning, on the first failure of ours: {@code "<headline>, <whenOff>:
 * <cause>"} ({@code "Chiplet plugin disabled on the driver, Spark runs as without it: ..."}, {@code "chiplet session
 * defaults off, Trino's own defaults apply: ..."}). Anything our code throws is ours to absorb, a
 * {@link LinkageError} from an engine or JDK older or newer than ours and a stack overflow in our code included;
 * the JVM running out of memory or breaking down is the engine's to handle and passes through.
 */
public final class FailOpenSwitch
{
    private final Logger log;
    private final String headline;
    private final String whenOff;
    private final Consumer<String> onOff;
    private volatile boolean off;

    /**
     * @param headline what went off, as the warning starts ("Chiplet plugin disabled on the driver")
     * @param whenOff what the engine does instead ("Spark runs as without it")
     * @param onOff told the cause once, when the part goes off (to show it in a table)
     */
    public FailOpenSwitch(Logger log, String headline, String whenOff, Consumer<String> onOff)
    {
        this.log = requireNonNull(log, "log is null");
        this.headline = requireNonNull(headline, "headline is null");
        this.whenOff = requireNonNull(whenOff, "whenOff is null");
        this.onOff = requireNonNull(onOff, "onOff is null");
    }

    public boolean active()
    {
        return !off;
    }

    /** Switches off with the one warning a user sees. */
    public void disable(String cause)
    {
        requireNonNull(cause, "cause is null");
        if (switchOff()) {
            log.warn("{}, {}: {}", headline, whenOff, cause);
            onOff.accept(whenOff + ": " + cause);
        }
    }

    /** Switches off without a warning (the user asked for it, or another part already warned), saying so at INFO. */
    public void disableQuietly(String message)
    {
        requireNonNull(message, "message is null");
        if (switchOff()) {
            log.info("{}", message);
        }
    }

    private synchronized boolean switchOff()
    {
        if (off) {
            return false;
        }
        off = true;
        return true;
    }

    public void run(String entryPoint, Runnable action)
    {
        call(entryPoint, () -> {
            action.run();
            return null;
        }, null);
    }

    /**
     * Runs even when switched off: undoing what an earlier call did (restoring a pinned thread, releasing a lease)
     * must not be skipped because something failed in between.
     */
    public void runAlways(String entryPoint, Runnable action)
    {
        try {
            action.run();
        }
        catch (Throwable e) {
            rethrowIfFatal(e);
            log.debug("Chiplet plugin failure in {}", entryPoint, e);
            disable("%s failed: %s".formatted(entryPoint, e));
        }
    }

    /** The action's result, or {@code whenOff} once this part is off or when the action fails (which switches it off). */
    public <T> T call(String entryPoint, Supplier<T> action, T whenOff)
    {
        if (off) {
            return whenOff;
        }
        try {
            return action.get();
        }
        catch (Throwable e) {
            rethrowIfFatal(e);
            if (!off) {
                log.debug("Chiplet plugin failure in {}", entryPoint, e);
            }
            disable("%s failed: %s".formatted(entryPoint, e));
            return whenOff;
        }
    }

    /**
     * For a {@code catch (Throwable e)} around our code: rethrows only what is the JVM's (out of memory, an internal
     * error), not a stack overflow of ours.
     */
    public static void rethrowIfFatal(Throwable t)
    {
        if (t instanceof VirtualMachineError error && !(t instanceof StackOverflowError)) {
            throw error;
        }
    }
}
