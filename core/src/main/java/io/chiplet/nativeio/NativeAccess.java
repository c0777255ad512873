package io.chiplet.nativeio;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Chooses, once per JVM, how the syscall families reach the kernel (see {@link NativePath}), and builds each family's
 * implementation for that path.
 *
 * <p>This class and everything it names directly are Java 17 byte code. The FFM implementations are compiled for
 * Java 22 (the first release where the API is final) from a source root of their own and are only ever loaded by
 * name here, after the JVM's feature version said they can be: on JDK 17 and 21 they are never touched, so no
 * {@code UnsupportedClassVersionError} can reach a caller. The system property {@code chiplet.native}
 * ({@code ffm}, {@code jna} or {@code none}) overrides the choice, for tests and for comparing the two paths.
 */
public final class NativeAccess
{
    /** The system property that overrides the choice. */
    public static final String PROPERTY = "chiplet.native";

    private static final int FFM_FEATURE = 22;

    private static final NativePath PATH = choose(
            System.getProperty("os.name", ""),
            Runtime.version().feature(),
            Optional.ofNullable(System.getProperty(PROPERTY)),
            NativeAccess::jnaProblem);

    private NativeAccess() {}

    /** The path this JVM uses. */
    public static NativePath path()
    {
        return PATH;
    }

    /** True on Linux, where the sysfs and syscall facilities exist at all. */
    public static boolean isLinux()
    {
        return isLinux(System.getProperty("os.name", ""));
    }

    /**
     * Pure: the path for an OS, a JVM feature version, an optional override and a check that says what keeps JNA
     * from loading (empty when it loads).
     */
    static NativePath choose(String osName, int feature, Optional<String> override, Supplier<Optional<String>> jnaProblem)
    {
        if (!isLinux(osName)) {
            return new NativePath(NativePath.Kind.NONE, osName + " is not Linux: no sched_setaffinity, mbind or perf_event_open");
        }
        boolean ffmPossible = feature >= FFM_FEATURE;
        if (override.isPresent()) {
            String wanted = override.get().strip().toLowerCase(Locale.ROOT);
            switch (wanted) {
                case "ffm":
                    return ffmPossible
                            ? new NativePath(NativePath.Kind.FFM, PROPERTY + "=ffm on JDK " + feature)
                            : new NativePath(NativePath.Kind.NONE, PROPERTY + "=ffm but JDK " + feature + " has no final FFM API (needs " + FFM_FEATURE + "+)");
                case "jna":
                    return jnaPath(PROPERTY + "=jna on JDK " + feature, jnaProblem);
                case "none":
                    return new NativePath(NativePath.Kind.NONE, PROPERTY + "=none");
                default:
                    return new NativePath(NativePath.Kind.NONE, PROPERTY + "=\"" + override.get() + "\" is not one of ffm, jna, none");
            }
        }
        if (ffmPossible) {
            return new NativePath(NativePath.Kind.FFM, "JDK " + feature + ": the JDK's foreign function API");
        }
        return jnaPath("JDK " + feature + " has no final FFM API (needs " + FFM_FEATURE + "+): JNA direct mapping", jnaProblem);
    }

    private static NativePath jnaPath(String reason, Supplier<Optional<String>> jnaProblem)
    {
        Optional<String> problem = jnaProblem.get();
        return problem.isEmpty()
                ? new NativePath(NativePath.Kind.JNA, reason)
                : new NativePath(NativePath.Kind.NONE, reason + ", but JNA cannot load: " + problem.get());
    }

    /**
     * The implementation of syscall family {@code type} for this JVM's path: {@code ffmClass} (loaded by name, see the
     * class comment) on FFM, {@code jna} on JNA; on neither, or when the chosen one fails to initialise, one whose
     * every method throws {@link UnsupportedOperationException} saying why. Never throws. {@code family} is the
     * family's own lookup ({@code MethodHandles.lookup()} in its package), so that its implementations can stay
     * package-private behind its entry point.
     */
    public static <T> T implementation(MethodHandles.Lookup family, Class<T> type, String ffmClass, Supplier<? extends T> jna)
    {
        return implementation(PATH, family, type, ffmClass, jna);
    }

    /** As {@link #implementation(MethodHandles.Lookup, Class, String, Supplier)} for a given path: benchmarks and tests compare both on one JVM. */
    public static <T> T implementation(NativePath path, MethodHandles.Lookup family, Class<T> type, String ffmClass, Supplier<? extends T> jna)
    {
        requireNonNull(family, "family is null");
        requireNonNull(type, "type is null");
        requireNonNull(ffmClass, "ffmClass is null");
        requireNonNull(jna, "jna is null");
        try {
            switch (path.kind()) {
                case FFM:
                    Class<?> implementation = family.findClass(ffmClass);
                    return type.cast(family.findConstructor(implementation, MethodType.methodType(void.class)).invoke());
                case JNA:
                    return jna.get();
                default:
                    return unavailable(type, path.reason());
            }
        }
        catch (ExceptionInInitializerError e) {
            return unavailable(type, path.kind().label() + " failed to initialise: " + describe(e.getCause()));
        }
        catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return unavailable(type, path.kind().label() + " failed to initialise: " + describe(e));
        }
        catch (Error e) {
            throw e;
        }
        catch (Throwable e) {
            // a checked exception from the constructor
            return unavailable(type, path.kind().label() + " failed to initialise: " + describe(e));
        }
    }

    /** An implementation of {@code type} whose every method throws {@link UnsupportedOperationException} with {@code reason}. */
    public static <T> T unavailable(Class<T> type, String reason)
    {
        requireNonNull(reason, "reason is null");
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, arguments) -> {
            if (method.getDeclaringClass() == Object.class) {
                switch (method.getName()) {
                    case "toString":
                        return type.getSimpleName() + " unavailable: " + reason;
                    case "hashCode":
                        return System.identityHashCode(self);
                    default:
                        return self == arguments[0];
                }
            }
            throw new UnsupportedOperationException(method.getName() + ": no native access (" + reason + ")");
        });
        return type.cast(proxy);
    }

    private static Optional<String> jnaProblem()
    {
        try {
            JnaLibc.library();
            return Optional.empty();
        }
        catch (RuntimeException | LinkageError e) {
            return Optional.of(describe(e));
        }
    }

    private static boolean isLinux(String osName)
    {
        return osName.toLowerCase(Locale.ROOT).startsWith("linux");
    }

    private static String describe(Throwable t)
    {
        Throwable cause = t == null ? new IllegalStateException("unknown") : t;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
