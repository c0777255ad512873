package io.chiplet.trino.guard;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Members that SPIs newer than the oldest one the plugin compiles against (trino-spi 476) add. The plugin calls them
 * only where the running Trino has them, through a handle looked up once, and otherwise does what the oldest SPI
 * offers; so one build runs on every supported release.
 */
public final class SpiMembers
{
    private SpiMembers() {}

    /** A public instance method {@code owner.name(type)}, empty where the running SPI lacks it. */
    public static Optional<MethodHandle> instanceMethod(Class<?> owner, String name, MethodType type)
    {
        try {
            return Optional.of(MethodHandles.publicLookup().findVirtual(owner, name, type));
        }
        catch (NoSuchMethodException | IllegalAccessException e) {
            return Optional.empty();
        }
    }
}
